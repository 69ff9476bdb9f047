"""Debian's headless Chromium through its driver (Selenium), one tab per seat, on 127.0.0.1 only."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=390,844", "--autoplay-policy=user-gesture-required")
# A phone's browser throttles and freezes pages in the background; the whole-game tests do not
# (one window, many tabs), the measurement of a backgrounded page does (`Browser(background=True)`).
EVEN_IN_THE_BACKGROUND = ("--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                          "--disable-backgrounding-occluded-windows")


def need_chromium() -> None:
    if shutil.which(CHROMIUM) is None or shutil.which(DRIVER) is None:
        pytest.fail("Debian's chromium and chromium-driver are not installed: run 'bash scripts/setup.sh dev,phones'")


class Browser:
    """One Chromium with one tab per seat (`tab(seat)` switches to it)."""

    def __init__(self, background: bool = False) -> None:
        pytest.importorskip("selenium", reason="Selenium is not installed: scripts/setup.sh dev,phones")
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        need_chromium()
        self.profile = tempfile.mkdtemp(prefix="narrator-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, *(() if background else EVEN_IN_THE_BACKGROUND), f"--user-data-dir={self.profile}"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        self.tabs: dict[int, str] = {}

    def open(self, seat: int, link: str) -> None:
        if self.tabs:
            self.driver.switch_to.new_window("tab")
        self.driver.get(link)
        self.tabs[seat] = self.driver.current_window_handle

    def tab(self, seat: int) -> Any:
        self.driver.switch_to.window(self.tabs[seat])
        return self.driver

    def wait(self, seat: int, condition: Any, timeout: float = 30.0) -> Any:
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.tab(seat), timeout, poll_frequency=0.05).until(condition)

    def text(self, seat: int, element: str) -> str:
        """The element's text as the page holds it (a tab in the background is not laid out, so
        what WebDriver calls its visible text may be empty)."""
        return str(self.tab(seat).execute_script(f"return document.getElementById('{element}').innerText || "
                                                  f"document.getElementById('{element}').textContent"))

    def screenshot(self, seat: int, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.tab(seat).save_screenshot(str(path))

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
