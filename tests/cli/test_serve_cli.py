"""`glassbox serve` as a user runs it: the base URL on stdout, a line per request, Ctrl+C stops cleanly."""

from __future__ import annotations

import base64
import io
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx2
import openai
import psutil
import pytest
from PIL import Image

KEY = "serve-test-key-0123456789"
START_S = 120.0
RESTART_S = 240.0  # a fresh engine process imports llama.cpp and loads the model


def _glassbox(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GLASSBOX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=60, env=env)


def test_another_address_without_a_key_is_refused_before_the_model_loads(isolated_home: Path) -> None:
    result = _glassbox("serve", "--host", "0.0.0.0", home=isolated_home)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "--api-key-file" in result.stderr and "needs an API key" in result.stderr
    assert "Loading" not in result.stderr


def test_an_empty_key_file_is_refused(isolated_home: Path, tmp_path: Path) -> None:
    empty = tmp_path / "key"
    empty.write_text("\n")
    result = _glassbox("serve", "--api-key-file", str(empty), home=isolated_home)
    assert result.returncode == 1 and "is empty" in result.stderr


def test_a_port_out_of_range_is_refused_by_the_flag(isolated_home: Path) -> None:
    result = _glassbox("serve", "--port", "70000", home=isolated_home)
    assert result.returncode == 2 and "--port: must be a whole number from 0 to 65535" in result.stderr


@pytest.mark.requires_model  # the child process loads the starter
def test_serve_prints_the_base_url_answers_with_the_key_and_stops_on_ctrl_c(
    isolated_home: Path, tmp_path: Path
) -> None:
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    command = [sys.executable, "-m", "app", "serve", "--port", "0", "--api-key-file", str(key_file), "--n-ctx", "1024"]
    env = {**os.environ, "GLASSBOX_HOME": str(isolated_home)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], name="serve-out")
        reader.start()
        try:
            first = lines.get(timeout=START_S)
            assert first.startswith("Glassbox serves ")
            base_url = first.split(" at ")[1].split()[0]
            assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
            with openai.OpenAI(base_url=base_url, api_key=KEY, max_retries=0) as client:
                reply = client.chat.completions.create(
                    model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=4
                )
            assert reply.choices[0].message.content
            request_line = lines.get(timeout=START_S)
            assert "POST /v1/chat/completions 200" in request_line and "tok/s" in request_line
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
            reader.join()  # stdout ended with the process
            stderr = process.stderr.read() if process.stderr else ""
    assert process.returncode == 0, stderr
    assert "Stopping" in stderr
    assert KEY not in stderr and KEY not in request_line


@pytest.mark.requires_model
@pytest.mark.timeout(420)
def test_serve_restarts_a_killed_engine_and_serves_the_model_again(isolated_home: Path) -> None:
    command = [sys.executable, "-m", "app", "serve", "--port", "0", "--n-ctx", "1024"]
    env = {**os.environ, "GLASSBOX_HOME": str(isolated_home)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        lines: queue.Queue[str] = queue.Queue()
        errors: queue.Queue[str] = queue.Queue()
        readers = [
            threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], name="serve-out"),
            threading.Thread(target=lambda: [errors.put(line) for line in process.stderr or ()], name="serve-err"),
        ]
        for reader in readers:
            reader.start()
        try:
            base_url = lines.get(timeout=START_S).split(" at ")[1].split()[0]
            (engine,) = [child for child in psutil.Process(process.pid).children() if _is_engine(child)]
            engine.kill()
            said = ""
            while "restarted" not in said:  # each line within the bound, or queue.Empty fails the test
                said = errors.get(timeout=RESTART_S)
            health = httpx2.get(base_url.removesuffix("/v1") + "/health", timeout=30).json()
            assert health["status"] == "ok" and health["engine"]["restarts"] == 1
            assert "SIGKILL" in health["engine"]["last_error"]
            with openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0) as client:
                reply = client.chat.completions.create(
                    model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=4
                )
            assert reply.choices[0].message.content
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
            for reader in readers:
                reader.join()
    assert process.returncode == 0


def _is_engine(child: psutil.Process) -> bool:
    """The engine process (multiprocessing's spawned child), not a helper such as its resource tracker."""
    command = " ".join(child.cmdline())
    return "spawn_main" in command and "resource_tracker" not in command


@pytest.mark.requires_model  # the child process loads the starter
def test_serve_reads_images_with_the_projector_beside_a_vision_model_without_being_told(
    isolated_home: Path, tmp_path: Path, starter_model: Path, projector_file: Path
) -> None:
    """The synthetic projector's weights are random: the reply is nonsense; that it comes is the point."""
    folder = tmp_path / "smol-vision-GGUF"
    folder.mkdir()
    (folder / "smol-vision.gguf").symlink_to(starter_model)
    (folder / "mmproj-smol-vision-f16.gguf").symlink_to(projector_file)
    key_file = tmp_path / "key"
    key_file.write_text(KEY + "\n")
    command = [
        sys.executable, "-m", "app", "serve", "--model", str(folder / "smol-vision.gguf"), "--port", "0",
        "--api-key-file", str(key_file), "--n-ctx", "1024",
    ]  # fmt: skip
    picture = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(picture, "PNG")
    data_url = "data:image/png;base64," + base64.b64encode(picture.getvalue()).decode()
    env = {**os.environ, "GLASSBOX_HOME": str(isolated_home)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as process:
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], name="serve-out")
        reader.start()
        try:
            base_url = lines.get(timeout=START_S).split(" at ")[1].split()[0]
            with openai.OpenAI(base_url=base_url, api_key=KEY, max_retries=0) as client:
                reply = client.chat.completions.create(
                    model="any",
                    messages=[
                        {
                            "role": "user",
                            "content": [
                                {"type": "text", "text": "What is in it?"},
                                {"type": "image_url", "image_url": {"url": data_url}},
                            ],
                        }
                    ],
                    max_tokens=4,
                    temperature=0,
                )
            assert reply.usage is not None and reply.usage.prompt_tokens > 64  # the image's 64 tokens and the text
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
            reader.join()
    assert process.returncode == 0
