"""The playground in headless Debian chromium (driven through Debian's chromedriver).

Types an invalid attribute object into the editor and waits for the diagnostic to be
listed and its position highlighted, as a person would see it.
"""

from __future__ import annotations

import os
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from web_helpers import running_server

pytestmark = pytest.mark.slow  # a real server (and browser) end to end

CHROMIUM = os.environ.get("TOSA_VKSHADER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TOSA_VKSHADER_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_S = 20

TYPED = '{\n"entry_point": "main",\n"workgroup_sizes": [8, 8, 1],\n"input_0_bindng": 0\n}'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    home = tmp_path_factory.mktemp("web-browser")
    with running_server("--workers", "1", cwd=home,
                        env={"TOSA_VKSHADER_CACHE_DIR": str(home / "cache")}) as running:
        yield running


@pytest.fixture
def browser(tmp_path):
    # bootstrap.sh installs chromium and chromium-driver; a missing one is a failure here.
    assert shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER), \
        "install Debian's chromium and chromium-driver (scripts/bootstrap.sh does)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,900",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


def diagnostic_items(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#diagnostics li.diag")


def test_typing_an_invalid_object_shows_the_diagnostic_and_highlights_it(server, browser):
    browser.get(server.url + "/")
    wait = WebDriverWait(browser, WAIT_S)
    # The page starts with an example and checks it.
    wait.until(lambda d: d.find_element(By.ID, "summary").get_attribute("data-state") == "done")
    editor = browser.find_element(By.ID, "source")
    editor.click()
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    editor.send_keys(TYPED)
    assert editor.get_attribute("value") == TYPED

    def misspelled_listed(driver):  # the answer for the typed text, not the example's
        return [item for item in diagnostic_items(driver)
                if item.get_attribute("data-code") == "VKS112"
                and "input_0_bindng" in item.find_element(By.CSS_SELECTOR, ".message").text]

    [item] = wait.until(misspelled_listed)
    assert "did you mean" in item.find_element(By.CSS_SELECTOR, ".hint").text
    assert item.find_element(By.CSS_SELECTOR, ".where").text == "4:1"
    link = item.find_element(By.CSS_SELECTOR, "a.code")
    assert link.text == "VKS112"
    assert link.get_attribute("href").endswith("docs/rules.md#vks112")
    assert browser.find_element(By.ID, "summary-badge").text == "2 errors"  # + VKS220

    # The key is marked in the highlight layer, exactly over its text.
    marks = browser.find_elements(By.CSS_SELECTOR, "#highlight mark.mark-error")
    assert '"input_0_bindng"' in [m.get_attribute("textContent") for m in marks]
    # ... and the gutter flags its line.
    flagged = browser.find_elements(By.CSS_SELECTOR, "#gutter .gl-error")
    assert "4" in [f.get_attribute("textContent") for f in flagged]

    # Clicking the diagnostic selects the offending text in the editor.
    item.click()
    start, end = browser.execute_script(
        "const s = document.getElementById('source'); return [s.selectionStart, s.selectionEnd];")
    assert TYPED[start:end] == '"input_0_bindng"'

    # Fixing the key clears the list: live updates as the user types.
    editor.send_keys(Keys.CONTROL, "a")
    editor.send_keys(Keys.DELETE)
    editor.send_keys('{"entry_point": "main", "workgroup_sizes": [8, 8, 1]}')
    wait.until(lambda d: d.find_element(By.ID, "summary-badge").text == "No problems")
    assert diagnostic_items(browser) == []
    assert not browser.find_elements(By.CSS_SELECTOR, "#highlight mark")
