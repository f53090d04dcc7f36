"""Import-and-use check of real binary wheels (make wheels, contract rule 31).

    python [-L] tests/wheels/wheel_check.py [PACKAGE...]

For each package of tests/wheels/requirements.txt (stock cp313 wheels from
PyPI) this imports it, exercises real functionality of its compiled
extension modules and prints one line ``name version digest``: the digest
is a sha256 over the results, deterministic for a given wheel.  The output
must be the same on vanilla CPython, on the fork and on the fork with -L.
A package that fails prints ``name ERROR ...`` and the script exits 1.

Not a pytest module (no test_ prefix): 'make wheels' runs it in the venvs.
"""

import hashlib
import importlib.metadata
import os
import sys
import traceback


def so_name(module):
    """The extension module's file name, to show the binary was loaded."""
    path = getattr(module, "__file__", None) or ""
    return os.path.basename(path)


def check_numpy(out):
    import numpy as np
    a = np.arange(1200, dtype=np.float64).reshape(30, 40)
    out(a.sum(), a.mean(axis=0).tobytes(), (a @ a.T).tobytes())
    rng = np.random.Generator(np.random.PCG64(12345))
    m = rng.standard_normal((20, 20))
    b = rng.standard_normal(20)
    out(np.linalg.solve(m, b).round(10).tobytes())
    out(np.fft.rfft(np.sin(np.linspace(0, 8 * np.pi, 256))).round(8).tobytes())
    out(np.sort(rng.integers(0, 1000, 500)).tobytes())
    s = np.array(["b", "a", "c"]).astype("U3")
    out(np.char.upper(s).tolist(), np.unique(s).tolist())
    out(so_name(np._core._multiarray_umath))


def check_pydantic(out):
    import datetime
    import typing

    import pydantic
    import pydantic_core

    class Item(pydantic.BaseModel):
        name: str
        price: float = pydantic.Field(gt=0)
        tags: typing.List[str] = []

        @pydantic.field_validator("name")
        @classmethod
        def strip(cls, value):
            return value.strip()

    class Order(pydantic.BaseModel):
        id: int
        when: datetime.date
        items: typing.List[Item]

    order = Order.model_validate({
        "id": "7", "when": "2024-02-29",
        "items": [{"name": " pen ", "price": "1.5", "tags": ["a"]},
                  {"name": "ink", "price": 3}]})
    out(order.model_dump_json(), repr(order))
    try:
        Order.model_validate({"id": "x", "when": "2024-13-01",
                              "items": [{"name": 1, "price": -1}]})
    except pydantic.ValidationError as exc:
        out([(e["type"], e["loc"]) for e in exc.errors()])
    out(sorted(Order.model_json_schema()["$defs"]["Item"]["properties"]))
    adapter = pydantic.TypeAdapter(typing.Dict[str, typing.List[int]])
    out(adapter.validate_json(b'{"a": [1, "2", 3]}'))
    out(pydantic_core.__version__, so_name(pydantic_core._pydantic_core))


def check_lxml(out):
    from lxml import etree
    root = etree.fromstring(
        b"<root xmlns:x='urn:x'><a n='1'>one</a><a n='2'>two</a>"
        b"<x:b>three</x:b></root>")
    out(root.xpath("//a[@n > 1]/text()"),
        root.xpath("//x:b/text()", namespaces={"x": "urn:x"}))
    xslt = etree.XSLT(etree.fromstring(
        b"<xsl:stylesheet version='1.0' "
        b"xmlns:xsl='http://www.w3.org/1999/XSL/Transform'>"
        b"<xsl:template match='/'><list><xsl:for-each select='//a'>"
        b"<item><xsl:value-of select='@n'/>:<xsl:value-of select='.'/></item>"
        b"</xsl:for-each></list></xsl:template></xsl:stylesheet>"))
    out(str(xslt(root)))
    out(etree.tostring(root, method="c14n"))
    html = etree.HTML("<p>Hello<b>world</p>")
    out(etree.tostring(html))
    out(etree.LXML_VERSION, so_name(etree))


def check_cryptography(out):
    from cryptography.hazmat.primitives import hashes, hmac, serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519, x25519
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    digest = hashes.Hash(hashes.SHA256())
    digest.update(b"lazy imports")
    out(digest.finalize())
    mac = hmac.HMAC(b"k" * 32, hashes.SHA512())
    mac.update(b"message")
    out(mac.finalize())
    aes = AESGCM(bytes(range(32)))
    ct = aes.encrypt(b"\0" * 12, b"secret payload", b"aad")
    out(ct, aes.decrypt(b"\0" * 12, ct, b"aad"))
    key = ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    sig = key.sign(b"msg")
    key.public_key().verify(sig, b"msg")
    out(sig, key.public_key().public_bytes(serialization.Encoding.Raw,
                                           serialization.PublicFormat.Raw))
    a = x25519.X25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    b = x25519.X25519PrivateKey.from_private_bytes(bytes(range(2, 34)))
    out(a.exchange(b.public_key()) == b.exchange(a.public_key()),
        a.exchange(b.public_key()))
    out(HKDF(hashes.SHA256(), 32, b"salt", b"info").derive(b"ikm"))
    from cryptography.hazmat.bindings._rust import openssl
    out(so_name(sys.modules["cryptography.hazmat.bindings._rust"]),
        openssl.openssl_version_text()[:7])


def check_cffi(out):
    import cffi
    ffi = cffi.FFI()
    ffi.cdef("int abs(int); size_t strlen(const char *);")
    libc = ffi.dlopen(None)
    buf = ffi.new("char[]", b"lazy")
    out(libc.abs(-42), libc.strlen(buf), ffi.sizeof("long"))
    out(so_name(sys.modules["_cffi_backend"]))


def check_msgpack(out):
    import msgpack
    data = {"a": [1, 2.5, None, True], "b": {"c": b"bytes", "d": "str"},
            "e": list(range(100)), "f": -2**40}
    packed = msgpack.packb(data)
    out(packed, msgpack.unpackb(packed) == data)
    packer = msgpack.Packer()
    stream = b"".join(packer.pack(i) for i in range(50))
    unpacker = msgpack.Unpacker()
    unpacker.feed(stream)
    out(list(unpacker))
    ext = msgpack.packb(msgpack.ExtType(5, b"xyz"))
    out(ext, msgpack.unpackb(ext))
    out(so_name(msgpack._cmsgpack))


def check_pyyaml(out):
    import yaml
    doc = {"name": "lazy", "list": [1, 2.5, None, True], "nested": {"k": "v"}}
    text = yaml.dump(doc, Dumper=yaml.CSafeDumper, sort_keys=True)
    out(text, yaml.load(text, Loader=yaml.CSafeLoader) == doc)
    out(list(yaml.load_all("a: 1\n---\nb: [x, y]\n", Loader=yaml.CSafeLoader)))
    out(yaml.__with_libyaml__, so_name(sys.modules["yaml._yaml"]))


def check_orjson(out):
    import dataclasses
    import datetime

    import orjson

    @dataclasses.dataclass
    class Point:
        x: int
        y: float

    value = {"p": Point(1, 2.5), "d": datetime.datetime(2024, 1, 2, 3, 4, 5),
             "l": [1, "two", None], "u": "\u00e9"}
    dumped = orjson.dumps(value, option=orjson.OPT_SORT_KEYS
                          | orjson.OPT_INDENT_2)
    out(dumped, orjson.loads(dumped))
    out(so_name(orjson.orjson))


def check_ujson(out):
    import ujson
    value = {"b": [1, 2, 3], "a": {"x": 1.25, "y": None}, "s": "\u00e9"}
    dumped = ujson.dumps(value, sort_keys=True, ensure_ascii=True)
    out(dumped, ujson.loads(dumped) == value)
    out(so_name(ujson))


def check_markupsafe(out):
    import markupsafe
    out(markupsafe.escape("<a href='x'>&</a>"),
        markupsafe.Markup("<b>{}</b>").format("<i>"),
        markupsafe.Markup("<em>x</em>").striptags())
    out(so_name(sys.modules["markupsafe._speedups"]))


def check_regex(out):
    import regex
    out(regex.findall(r"\p{Lu}\w+", "Lazy Imports In Python"),
        regex.sub(r"(?<word>\w+)", r"<\g<word>>", "a bc"),
        regex.fullmatch(r"(?:colou?r){e<=1}", "colr") is not None,
        regex.split(r"\s*,\s*", "a , b,c"))
    out(so_name(sys.modules["regex._regex"]))


CHECKS = {
    "numpy": check_numpy,
    "pydantic": check_pydantic,
    "lxml": check_lxml,
    "cryptography": check_cryptography,
    "cffi": check_cffi,
    "msgpack": check_msgpack,
    "PyYAML": check_pyyaml,
    "orjson": check_orjson,
    "ujson": check_ujson,
    "MarkupSafe": check_markupsafe,
    "regex": check_regex,
}


def main(names):
    status = 0
    for name in names or CHECKS:
        sha = hashlib.sha256()

        def out(*values):
            for value in values:
                sha.update(value if isinstance(value, bytes)
                           else repr(value).encode())
                sha.update(b"\0")
        try:
            version = importlib.metadata.version(name)
            CHECKS[name](out)
        except BaseException:
            status = 1
            error = traceback.format_exc().strip().splitlines()[-1]
            print(f"{name} ERROR {error}")
        else:
            print(f"{name} {version} {sha.hexdigest()[:16]}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
