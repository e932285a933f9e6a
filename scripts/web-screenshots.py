"""Take the playground screenshots in docs/ (docs/web.md shows them).

    PYTHONPATH=src python scripts/web-screenshots.py

Starts `tosa-vkshader serve` on loopback and drives Debian's chromium (headless) through
what docs/web.md describes: a GLSL op whose shader has a compile error, the diagnostic
clicked (the shader pane scrolled to the line and the line highlighted), and a TOSA MLIR
module with a fix offered.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

DOCS = Path(__file__).resolve().parents[1] / "docs"


def main() -> int:
    home = Path(tempfile.mkdtemp(prefix="web-shots-"))
    server = subprocess.Popen([sys.executable, "-m", "tosa_vkshader", "serve", "--port", "0",
                               "--workers", "1"], stderr=subprocess.PIPE, text=True, cwd=home)
    try:
        line = server.stderr.readline()
        url = line.split("listening on ", 1)[1].split()[0]
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,860",
                     "--hide-scrollbars", f"--user-data-dir={home / 'profile'}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        wait = WebDriverWait(driver, 60)

        def done(d):
            return d.find_element(By.ID, "summary").get_attribute("data-state") == "done"

        try:
            for _ in range(100):
                try:
                    driver.get(url)
                    break
                except Exception:  # noqa: BLE001 - the server is still starting
                    time.sleep(0.1)
            wait.until(done)
            # The GLSL example, its shader broken in the shader pane, compiled on Ctrl+Enter.
            pane = driver.find_element(By.ID, "shader")
            pane.click()
            pane.send_keys(Keys.CONTROL, Keys.END)
            pane.send_keys(Keys.UP, Keys.UP, Keys.END)
            pane.send_keys(Keys.BACKSPACE)
            pane.send_keys(Keys.CONTROL, Keys.ENTER)
            wait.until(lambda d: [i for i in d.find_elements(By.CSS_SELECTOR, "li.diag")
                                  if i.get_attribute("data-code") == "VKS300"])
            item = [i for i in driver.find_elements(By.CSS_SELECTOR, "li.diag")
                    if i.get_attribute("data-code") == "VKS300"][0]
            item.click()
            time.sleep(0.3)
            driver.save_screenshot(str(DOCS / "playground.png"))
            # A TOSA MLIR module: every custom op checked, fixes offered.
            Select(driver.find_element(By.ID, "mode")).select_by_value("mlir")
            wait.until(done)
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "li.diag"))
            time.sleep(0.3)
            driver.save_screenshot(str(DOCS / "playground-mlir.png"))
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
