"""`glassbox servers add|list|remove|test`: the OpenAI-compatible servers Glassbox can chat through.

The entries live in the settings file; API keys only in the system keyring (give a key
through an environment variable or on stdin, never as an argument, where the shell history
and `ps` would keep it).
"""

from __future__ import annotations

import argparse
import os
import sys

from app.cli.common import CommandError, fail, quiet_logging
from app.cli.terminal_text import terminal_safe
from app.core.backends.probe import ProbeResult, probe_server
from app.core.backends.remote import RemoteConfig, RemoteError, TokenizeRoute
from app.core.backends.servers import DEFAULT_TIMEOUT_S, ServerError, ServerKeys, new_server
from app.core.paths import app_paths
from app.core.settings import Settings, SettingsError, load_settings, save_settings
from app.core.support.text_table import text_table


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    commands = parser.add_subparsers(dest="servers_command", metavar="ACTION", required=True)

    add = commands.add_parser("add", help="save a server (tested first unless --no-test)")
    add.add_argument("name", help="a short name to use with `glassbox chat --server NAME`")
    add.add_argument("url", help="the server's address, e.g. http://gpu-box:8000")
    _key_options(add)
    add.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds to wait for the server")
    add.add_argument("--ca-file", default="", help="a certificate authority to trust for this server's TLS")
    add.add_argument("--no-test", action="store_true", help="save without testing the connection")
    add.set_defaults(handler=_add)

    listing = commands.add_parser("list", help="the saved servers")
    listing.set_defaults(handler=_list)

    remove = commands.add_parser("remove", help="forget a server and its key")
    remove.add_argument("name")
    remove.set_defaults(handler=_remove)

    test = commands.add_parser("test", help="connect and show what the server is and which models it has")
    test.add_argument("server", help="a saved server's name, or an address")
    _key_options(test)
    test.set_defaults(handler=_test)


def _key_options(parser: argparse.ArgumentParser) -> None:
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument("--api-key-env", metavar="NAME", help="the environment variable that holds the API key")
    keys.add_argument("--api-key-stdin", action="store_true", help="read the API key from standard input")


def _add(args: argparse.Namespace) -> int:
    quiet_logging(False)
    try:
        server = new_server(args.name, args.url, args.timeout, args.ca_file)
        settings = _settings()
        if settings.server(server.name) is not None:
            raise CommandError(f"a server named “{server.name}” is saved already; remove it first")
        api_key = _api_key(args)
        if not args.no_test:
            found = probe_server(server.config(api_key))
            server = server.with_probe(found)
            print(terminal_safe(f"{server.name}: {found.describe()}"))  # the server names its models
        if api_key:
            ServerKeys().set(server, api_key)
        save_settings(app_paths().settings_file, settings.with_server(server))
    except (CommandError, ServerError, SettingsError) as error:
        return fail(str(error))
    except RemoteError as error:
        return fail(f"{error.message} (nothing was saved; --no-test saves it anyway)")
    print(f"saved {server.name} ({server.url})" + (", its key in the system keyring" if api_key else ""))
    return 0


def _list(_args: argparse.Namespace) -> int:
    quiet_logging(False)
    servers = _settings().servers
    if not servers:
        print("no servers saved; add one with `glassbox servers add NAME URL`")
        return 0
    keys = ServerKeys()
    rows = [
        (
            server.name,
            server.url,
            server.kind or "not tested",
            "yes" if keys.get(server) else "no",
            f"{server.timeout_s:g} s",
        )
        for server in servers
    ]
    print(text_table(("name", "address", "kind", "API key", "timeout"), rows))
    return 0


def _remove(args: argparse.Namespace) -> int:
    quiet_logging(False)
    try:
        settings = _settings()
        server = settings.server(args.name)
        if server is None:
            raise CommandError(f"no server named “{args.name}” is saved (see `glassbox servers list`)")
        ServerKeys().delete(server)
        save_settings(app_paths().settings_file, settings.without_server(server.name))
    except (CommandError, ServerError, SettingsError) as error:
        return fail(str(error))
    print(f"removed {server.name}")
    return 0


def _test(args: argparse.Namespace) -> int:
    quiet_logging(False)
    try:
        settings = _settings()
        saved = settings.server(args.server)
        api_key = _api_key(args) or (ServerKeys().get(saved) if saved is not None else None)
        config = (
            saved.config(api_key) if saved is not None else RemoteConfig(new_server("test", args.server).url, api_key)
        )
        found = probe_server(config)
        if saved is not None:
            save_settings(app_paths().settings_file, settings.with_server(saved.with_probe(found)))
    except (CommandError, ServerError, SettingsError) as error:
        return fail(str(error))
    except RemoteError as error:
        return fail(error.message)
    print(terminal_safe(_report(found)))  # the server names its models and its version
    return 0


def _report(found: ProbeResult) -> str:
    lines = [found.describe()]
    lines.append(
        "token counts: "
        + ("exact (the server's tokenizer)" if found.tokenize is not TokenizeRoute.NONE else "estimated")
    )
    return "\n".join(lines)


def resolve_server(name_or_url: str, api_key: str | None) -> RemoteConfig:
    """A saved server by name (with its key from the keyring unless one is given), else an address."""
    saved = _settings().server(name_or_url)
    if saved is not None:
        return saved.config(api_key or ServerKeys().get(saved))
    try:
        return RemoteConfig(new_server("command line", name_or_url).url, api_key)
    except ServerError as error:
        raise CommandError(f"{error} (or the name of a saved server: see `glassbox servers list`)") from error


def _settings() -> Settings:
    return load_settings(app_paths().settings_file).settings


def _api_key(args: argparse.Namespace) -> str | None:
    if args.api_key_env:
        key = os.environ.get(args.api_key_env)
        if not key:
            raise CommandError(f"the environment variable {args.api_key_env} is not set (it should hold the API key)")
        return key
    if args.api_key_stdin:
        key = sys.stdin.readline().strip()
        if not key:
            raise CommandError("no API key came on standard input")
        return key
    return None
