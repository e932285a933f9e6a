"""The playground's target-device selector (#28), in headless chromium: the shipped
targets are offered, choosing one checks the op against it, and a shared link keeps it."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_web_browser import new_browser, open_page, value, wait
from web_helpers import module_server

from tosa_vkshader.devices import SHIPPED

from conftest import FIXTURES

server = module_server("web-devices")[0]


def shown(driver, code: str) -> list[str]:
    """The messages of the listed diagnostics with ``code``, read in one step (the list
    is redrawn whenever an answer arrives)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#diagnostics li.diag')]"
        ".filter(li => li.dataset.code === arguments[0])"
        ".map(li => li.querySelector('.message').textContent);", code)


def test_the_target_device_selector_checks_against_a_shipped_profile(server, tmp_path):
    text = (FIXTURES / "devices" / "subgroup_f16_256.json").read_text()
    browser = new_browser(tmp_path / "profile")
    try:
        open_page(browser, server.url + "/", {"mode": "json", "text": text})
        assert browser.find_element(By.XPATH, "//select[@id='target-env']/..").text \
            .startswith("VULKAN VERSION")  # as CSS shows the label
        device = Select(browser.find_element(By.ID, "target-device"))
        assert [o.get_attribute("value") for o in device.options] == ["", *SHIPPED]
        assert shown(browser, "VKS703") == []  # no target: no device rules

        device.select_by_value("baseline")
        [message] = wait(browser).until(lambda d: shown(d, "VKS703"))
        assert "target baseline (shipped profile baseline.json)" in message  # name as code
        assert len(shown(browser, "VKS700")) == 3  # float16, 16-bit storage, arithmetic

        device.select_by_value("roadmap-2024")
        wait(browser).until(lambda d: not shown(d, "VKS703") and d.find_element(
            By.ID, "summary").get_attribute("data-state") == "done")
        assert shown(browser, "VKS700") == []

        browser.find_element(By.ID, "share").click()
        url = wait(browser).until(lambda d: value(d, "share-url"))
    finally:
        browser.quit()
    other = new_browser(tmp_path / "other-profile")
    try:
        open_page(other, url)
        assert Select(other.find_element(By.ID, "target-device")).first_selected_option \
            .get_attribute("value") == "roadmap-2024"
        assert json.loads(value(other, "source"))["workgroup_sizes"] == [256, 1, 1]
    finally:
        other.quit()
