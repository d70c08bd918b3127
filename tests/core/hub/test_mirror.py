"""A Hub mirror chosen in the settings is where every Hub request goes; an unreachable Hub suggests one."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.hub.client import HubClient, HubError
from app.core.hub.mirror import DEFAULT_ENDPOINT, chosen_mirror, endpoint_problem, hub_endpoint, use_mirror
from app.core.settings import HubSettings, Settings, load_settings, save_settings
from tests.fakes.fake_hub import FakeHub


@pytest.fixture(autouse=True)
def no_mirror(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    use_mirror("")
    yield
    use_mirror("")


def test_the_settings_mirror_comes_before_hf_endpoint_and_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert hub_endpoint() == DEFAULT_ENDPOINT
    monkeypatch.setenv("HF_ENDPOINT", "https://hub.example.org/")
    assert hub_endpoint() == "https://hub.example.org"
    use_mirror(" https://hf-mirror.com/ ")
    assert hub_endpoint() == "https://hf-mirror.com" == chosen_mirror()
    assert HubClient().endpoint == "https://hf-mirror.com"
    use_mirror("")
    assert hub_endpoint() == "https://hub.example.org"


@pytest.mark.parametrize("address", ["", "https://hf-mirror.com", "http://10.0.0.2:8080/hub"])
def test_a_web_address_or_nothing_can_be_a_mirror(address: str) -> None:
    assert endpoint_problem(address) is None


@pytest.mark.parametrize(
    ("address", "why"),
    [("hf-mirror.com", "not a web address"), ("ftp://mirror", "not a web address"), ("https://m.org/?a=1", "query")],
)
def test_anything_else_is_refused_with_the_reason(address: str, why: str) -> None:
    problem = endpoint_problem(address)
    assert problem is not None and why in problem


def test_the_mirror_is_saved_in_the_hub_section_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    save_settings(path, Settings(hub=HubSettings("https://hf-mirror.com")))
    assert json.loads(path.read_text(encoding="utf-8"))["hub"] == {"endpoint": "https://hf-mirror.com"}
    loaded = load_settings(path)
    assert loaded.settings.hub.endpoint == "https://hf-mirror.com" and loaded.notices == []


@pytest.mark.expected_log("app.core.settings", logging.WARNING, "Hub mirror setting was dropped")
def test_a_bad_mirror_in_the_file_is_dropped_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"schema_version": 3, "hub": {"endpoint": "javascript:alert(1)"}}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings.hub == HubSettings()
    assert any("Hub mirror setting was dropped" in notice for notice in loaded.notices)


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
def test_an_unreachable_hub_suggests_setting_a_mirror() -> None:
    with pytest.raises(HubError) as caught:
        HubClient("http://glassbox-no-such-host.invalid").search("llama")
    assert "set a Hub mirror (for example https://hf-mirror.com) under Hub mirror in the Models window" in (
        caught.value.message
    )


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
def test_an_unreachable_mirror_is_named_as_the_one_set_in_the_models_window() -> None:
    with FakeHub() as stopped:
        url = stopped.url
    use_mirror(url)
    with pytest.raises(HubError) as caught:
        HubClient().search("llama")
    assert f"Glassbox is using the Hub mirror {url} set in the Models window." in caught.value.message
