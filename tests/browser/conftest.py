from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@contextlib.contextmanager
def lab_server(tmp: Path, token: str) -> Iterator[int]:
    """A JupyterLab server on a free port, rooted at the checkout, with quiet settings.

    Its configuration, runtime files and workspaces live under ``tmp``; yields the port.
    """
    settings = tmp / "settings"
    for plugin, value in (("@jupyterlab/apputils-extension/notification", {"fetchNews": "false"}),
                          ("@jupyterlab/docmanager-extension/plugin", {"autosave": False})):
        target = settings / f"{plugin}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value), encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "cfg"), JUPYTER_RUNTIME_DIR=str(tmp / "rt"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "ws"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
         "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
         "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
         "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
         "--LabApp.extension_manager=readonly", f"--LabApp.user_settings_dir={settings}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}",
                                       timeout=2)
                break
            except OSError:
                if time.time() > deadline:
                    pytest.fail("jupyter lab did not start within 90 s")
                time.sleep(0.5)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
