"""Configuration file: TOML, or INI for older installations.

The settings are grouped in sections; every setting has a default in
DEFAULTS, and a file only needs the ones it changes::

    [mail]
    smtp_host = "mail.example.com"
    starttls = true
"""

import configparser
import os
import pathlib
import platform
import tomllib

DEFAULTS = {
    "fetch": {
        "timeout": 30.0,
        "verify_tls": True,
    },
    "mail": {
        "smtp_host": "localhost",
        "smtp_port": 25,
        "starttls": False,
        "sender": None,
        "username": None,
        "imap_host": None,
        "archive_mailbox": None,
    },
}


def default_path():
    """Return where the configuration file is looked for by default."""
    if platform.system() == "Windows":
        base = os.environ.get("APPDATA") or pathlib.Path.home()
    else:
        base = (os.environ.get("XDG_CONFIG_HOME")
                or pathlib.Path.home() / ".config")
    return pathlib.Path(base, "logtool", "config.toml")


def _coerce(default, value, where):
    """Convert an INI string to the type of the setting's default."""
    if not isinstance(value, str) or isinstance(default, (str, type(None))):
        return value
    try:
        if isinstance(default, bool):
            return configparser.ConfigParser.BOOLEAN_STATES[value.lower()]
        return type(default)(value)
    except (KeyError, ValueError):
        raise ValueError(f"{where}: invalid value {value!r}") from None


def load_config(path=None):
    """Return the settings, from *path* or else from default_path().

    A missing file is an error only when *path* is given.  Files whose
    name does not end in ``.toml`` are read as INI files.  Unknown
    sections and settings are rejected with ValueError.
    """
    settings = {section: dict(values) for section, values in DEFAULTS.items()}
    if path is None:
        path = default_path()
        if not path.exists():
            return settings
    path = pathlib.Path(path)
    if path.suffix == ".toml":
        with path.open("rb") as stream:
            data = tomllib.load(stream)
    else:
        parser = configparser.ConfigParser(interpolation=None)
        with path.open(encoding="utf-8") as stream:
            parser.read_file(stream)
        data = {name: dict(parser[name]) for name in parser.sections()}
    for section, values in data.items():
        if section not in settings:
            raise ValueError(f"{path}: unknown section [{section}]")
        for key, value in values.items():
            where = f"{path}: [{section}] {key}"
            if key not in settings[section]:
                raise ValueError(f"{where}: unknown setting")
            settings[section][key] = _coerce(DEFAULTS[section][key], value,
                                             where)
    return settings
