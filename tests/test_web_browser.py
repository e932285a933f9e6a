"""The playground in headless Debian chromium (driven through Debian's chromedriver).

What a person does with the page, checked as they would see it: paste attributes and
read the diagnostics, edit the shader as a shader and find the compile error at its
line, click a diagnostic to get there, apply a fix, share a link, and switch languages
and sources without losing text.
"""

from __future__ import annotations

import base64
import json
import os
import shutil

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_helpers import module_server

from tosa_vkshader.cli import main

from conftest import FIXTURES

CHROMIUM = os.environ.get("TOSA_VKSHADER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("TOSA_VKSHADER_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_S = 30

TYPED = '{\n"entry_point": "main",\n"workgroup_sizes": [8, 8, 1],\n"input_0_bindng": 0\n}'
SHADER_HEAD = ("#version 460\nlayout(local_size_x = 8) in;\n"
               "layout(set = 0, binding = 0) buffer Data { float data[]; };\n")


server = module_server("web-browser")[0]


def new_browser(profile):
    # bootstrap.sh installs chromium and chromium-driver; a missing one is a failure here.
    assert shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER), \
        "install Debian's chromium and chromium-driver (scripts/bootstrap.sh does)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1400,900",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    return driver


@pytest.fixture
def browser(tmp_path):
    driver = new_browser(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def diagnostic_items(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#diagnostics li.diag")


def wait(driver):
    return WebDriverWait(driver, WAIT_S)


def open_page(driver, url: str, state: dict | None = None) -> None:
    """Open the page (with a state in the link, as a shared link carries it) and wait
    for its first check."""
    if state is not None:
        raw = json.dumps({"v": 1, **state}).encode()
        url += "#j=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    driver.get(url)
    wait(driver).until(lambda d: d.find_element(By.ID, "summary").get_attribute(
        "data-state") == "done")


def replace_text(driver, element_id: str, text: str) -> None:
    area = driver.find_element(By.ID, element_id)
    area.click()
    area.send_keys(Keys.CONTROL, "a")
    area.send_keys(Keys.DELETE)
    area.send_keys(text)


def value(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).get_attribute("value")


def listed(driver, code: str) -> list:
    return [item for item in diagnostic_items(driver)
            if item.get_attribute("data-code") == code]


def test_pasting_bare_attributes_lists_the_diagnostics_and_marks_them(server, browser):
    open_page(browser, server.url + "/")
    replace_text(browser, "source", TYPED)
    assert value(browser, "source") == TYPED

    def misspelled_listed(driver):  # the answer for the typed text, not the example's
        return [item for item in listed(driver, "VKS112")
                if "input_0_bindng" in item.find_element(By.CSS_SELECTOR, ".message").text]

    [item] = wait(browser).until(misspelled_listed)
    assert "did you mean" in item.find_element(By.CSS_SELECTOR, ".hint").text
    assert item.find_element(By.CSS_SELECTOR, ".where").text == "4:1"
    assert item.find_element(By.CSS_SELECTOR, ".sev").text.lower() == "error"
    assert browser.find_element(By.ID, "summary-badge").text == "2 errors"  # + VKS220

    # The key is marked in the highlight layer, exactly over its text, and its line is
    # flagged in the gutter.
    marks = browser.find_elements(By.CSS_SELECTOR, "#op-editor .highlight mark.mark-error")
    assert '"input_0_bindng"' in [m.get_attribute("textContent") for m in marks]
    flagged = browser.find_elements(By.CSS_SELECTOR, "#op-editor .gutter .gl-error")
    assert "4" in [f.get_attribute("textContent") for f in flagged]

    # Clicking the diagnostic selects the offending text in the op pane.
    item.click()
    start, end = browser.execute_script(
        "const s = document.getElementById('source'); return [s.selectionStart, s.selectionEnd];")
    assert TYPED[start:end] == '"input_0_bindng"'

    # The rule code leads to the rule's page, served by the app.
    link = item.find_element(By.CSS_SELECTOR, "a.code")
    assert link.text == "VKS112"
    href = link.get_attribute("href")
    assert href == server.url + "/v1/rules/VKS112"
    browser.get(href)
    assert "malformed-resource-key" in browser.find_element(By.ID, "rule-title").text
    browser.back()

    # Fixing the key clears the list: live updates as the user types.
    wait(browser).until(lambda d: d.find_element(By.ID, "summary").get_attribute(
        "data-state") == "done")
    replace_text(browser, "source", '{"entry_point": "main", "workgroup_sizes": [8, 8, 1]}')
    wait(browser).until(lambda d: d.find_element(By.ID, "summary-badge").text == "No problems")
    assert diagnostic_items(browser) == []
    assert not browser.find_elements(By.CSS_SELECTOR, "#op-editor .highlight mark")


def test_editing_the_shader_pane_updates_the_op_and_the_compile_error_is_at_its_line(
        server, browser):
    filler = "".join(f"// line {n}: padding so that the error is below the fold\n"
                     for n in range(4, 64))
    shader = SHADER_HEAD + filler + "void main() {\n  data[0] = 1.0;\n}\n"
    attrs = {"entry_point": "main", "workgroup_sizes": [8, 1, 1], "shader_language": "GLSL",
             "shader_code": shader, "output_0_binding": 0, "output_0_descriptorset": 0,
             "output_0_vkformat": "VK_FORMAT_R32_SFLOAT",
             "output_0_vkdescriptortype": "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"}
    open_page(browser, server.url + "/", {"mode": "json", "text": json.dumps(attrs, indent=2)})
    assert value(browser, "shader") == shader  # the shader as real multi-line text
    assert "error" not in browser.find_element(By.ID, "summary-badge").text

    # Type a broken statement at the end of main, as one edits code.
    pane = browser.find_element(By.ID, "shader")
    pane.click()
    pane.send_keys(Keys.CONTROL, Keys.END)
    pane.send_keys(Keys.UP, Keys.END, Keys.ENTER, "  float x = ;")
    edited = value(browser, "shader")
    error_line = edited.splitlines().index("  float x = ;") + 1
    assert error_line == 67
    # The op follows: its shader_code is the pane's text.
    assert json.loads(value(browser, "source"))["shader_code"] == edited
    # A shader is compiled on request only (Ctrl+Enter), not on every pause.
    assert browser.find_element(By.ID, "summary").get_attribute("data-state") == "pending"
    pane.send_keys(Keys.CONTROL, Keys.ENTER)
    [item] = wait(browser).until(lambda d: listed(d, "VKS300"))
    assert item.get_attribute("data-pane") == "shader"
    assert item.find_element(By.CSS_SELECTOR, ".where").text.startswith(f"shader {error_line}:")
    flagged = browser.find_elements(By.CSS_SELECTOR, "#shader-editor .gutter .gl-error")
    assert [f.get_attribute("textContent") for f in flagged] == [str(error_line)]

    # Clicking the diagnostic scrolls the shader pane to the line and highlights it.
    browser.execute_script("document.getElementById('shader').scrollTop = 0;")
    item.click()
    scrolled, start, line_height, height = browser.execute_script(
        "const s = document.getElementById('shader');"
        "return [s.scrollTop, s.selectionStart, parseFloat(getComputedStyle(s).lineHeight),"
        " s.clientHeight];")
    assert edited[:start].count("\n") + 1 == error_line
    top = (error_line - 1) * line_height
    assert scrolled <= top <= scrolled + height - line_height  # the line is in view
    active = browser.find_elements(By.CSS_SELECTOR, "#shader-editor .gutter .gl-active")
    assert [a.get_attribute("textContent") for a in active] == [str(error_line)]
    assert browser.find_elements(By.CSS_SELECTOR, "#shader-editor .highlight mark.mark-active")


def test_apply_fix_repairs_the_op(server, browser):
    open_page(browser, server.url + "/")
    replace_text(browser, "source", TYPED)

    def fix_clicked(driver):  # on the typed text's diagnostic, not the example's
        try:
            buttons = [button for item in listed(driver, "VKS112")
                       if "input_0_bindng" in item.text
                       for button in item.find_elements(By.CSS_SELECTOR, "button.apply-fix")]
            if buttons:
                buttons[0].click()
            return bool(buttons)
        except StaleElementReferenceException:  # the list was redrawn meanwhile: again
            return False

    wait(browser).until(fix_clicked)
    wait(browser).until(lambda d: "input_0_binding" in value(d, "source"))
    fixed = json.loads(value(browser, "source"))
    assert "input_0_bindng" not in fixed and fixed["input_0_binding"] == 0
    wait(browser).until(lambda d: d.find_element(By.ID, "summary").get_attribute(
        "data-state") == "done" and not listed(d, "VKS112"))
    # The repair is an edit like any other: Ctrl+Z in the op pane brings the text back.
    browser.find_element(By.ID, "source").send_keys(Keys.CONTROL, "z")
    assert value(browser, "source") == TYPED


def test_a_shared_link_restores_the_state_in_another_browser(server, browser, tmp_path):
    open_page(browser, server.url + "/")
    replace_text(browser, "source", TYPED)
    Select(browser.find_element(By.ID, "semantics")).select_by_value("local-size")
    browser.find_element(By.ID, "share").click()
    url = wait(browser).until(lambda d: value(d, "share-url"))
    assert url.startswith(server.url + "/#")

    other = new_browser(tmp_path / "other-profile")  # nothing in common but the link
    try:
        open_page(other, url)
        assert value(other, "source") == TYPED
        assert Select(other.find_element(By.ID, "semantics")).first_selected_option \
            .get_attribute("value") == "local-size"
        wait(other).until(lambda d: listed(d, "VKS112"))
    finally:
        other.quit()


def test_switches_and_examples_never_lose_text(server, browser):
    open_page(browser, server.url + "/")
    mine = TYPED.replace('"main"', '"main",\n"shader_language": "GLSL",\n'
                                   '"shader_code": "void main() {}\\n"', 1)
    replace_text(browser, "source", mine)
    assert value(browser, "shader") == "void main() {}\n"

    # JSON -> MLIR -> JSON: each source keeps its own text.
    mode = Select(browser.find_element(By.ID, "mode"))
    mode.select_by_value("mlir")
    assert "tosa.custom" in value(browser, "source")
    mode.select_by_value("json")
    assert value(browser, "source") == mine

    # GLSL -> HLSL changes the op's shader_language only; the shader stays.
    language = Select(browser.find_element(By.ID, "language"))
    language.select_by_value("HLSL")
    switched = json.loads(value(browser, "source"))
    assert switched["shader_language"] == "HLSL"
    assert switched["shader_code"] == "void main() {}\n"
    assert value(browser, "shader") == "void main() {}\n"
    language.select_by_value("GLSL")
    assert value(browser, "source") == mine

    # "Load example" asks first; declining keeps the text, accepting can be undone.
    browser.find_element(By.ID, "load-example").click()
    wait(browser).until(lambda d: d.switch_to.alert).dismiss()
    assert value(browser, "source") == mine
    browser.find_element(By.ID, "load-example").click()
    wait(browser).until(lambda d: d.switch_to.alert).accept()
    assert "add_i32" in value(browser, "source")
    browser.find_element(By.ID, "source").send_keys(Keys.CONTROL, "z")
    assert value(browser, "source") == mine


def test_apply_fixes_repairs_a_model_in_mlir_mode(server, browser, tmp_path):
    """In MLIR mode the page offers `/v1/fix`'s repairs of the model too, and applying
    them gives the text `tosa-vkshader fix model.mlir` writes."""
    original = (FIXTURES / "models" / "generic.mlir").read_text()
    at = original.index("entry_point")
    damaged = original[:at] + "entryPoint" + original[at + len("entry_point"):]
    open_page(browser, server.url + "/", {"mode": "mlir", "text": damaged})
    button = browser.find_element(By.ID, "apply-all")
    wait(browser).until(lambda d: button.is_displayed())
    button.click()
    wait(browser).until(lambda d: value(d, "source") != damaged)
    copy = tmp_path / "model.mlir"
    copy.write_text(damaged)
    main(["fix", str(copy)])
    assert value(browser, "source") == copy.read_text()
