#!/usr/bin/env python3
"""Writes the small committed seed inputs in fuzz/seeds/<target>/ (run from anywhere; rewrites them).

Seeds are starting points, not tests of their own: each is a tiny well-formed file (or payload,
or varlink stream) that reaches one reader, so the fuzzer starts past the magic-byte checks.
The regression tests (Tests/*/FuzzRegressionTests.swift) read them too; a name's second
dash-separated word says what is expected (seed-png-… must be read as .png; see fuzz/README.md).
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    directory = os.path.join(HERE, "seeds", target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


# --- TIFF / EXIF -------------------------------------------------------------------------------

ASCII, SHORT, LONG, UNDEFINED, BYTE = 2, 3, 4, 7, 1
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, UNDEFINED: 1, 16: 8}


def tiff(entries0, exif_entries=(), big_endian=False, bigtiff=False):
    """A TIFF block: IFD0 (plus an Exif IFD when exif_entries), values after each IFD."""
    e = ">" if big_endian else "<"
    order = b"MM" if big_endian else b"II"
    if bigtiff:
        header = order + struct.pack(e + "HHHQ", 43, 8, 0, 16)
    else:
        header = order + struct.pack(e + "HI", 42, 8)
    entry_size, count_fmt, off_fmt, inline = (20, "Q", "Q", 8) if bigtiff else (12, "H", "I", 4)

    def ifd(entries, at):
        entries = sorted(entries)
        data_at = at + struct.calcsize(e + count_fmt) + entry_size * len(entries) + struct.calcsize(e + off_fmt)
        table = struct.pack(e + count_fmt, len(entries))
        data = b""
        for tag, typ, value in entries:
            if typ in (ASCII,):
                raw = value + b"\0"
                count = len(raw)
            elif typ in (BYTE, UNDEFINED):
                raw = value
                count = len(raw)
            else:
                raw = struct.pack(e + {SHORT: "H", LONG: "I", 16: "Q"}[typ], value)
                count = 1
            table += struct.pack(e + "HH", tag, typ) + struct.pack(e + off_fmt, count)
            if len(raw) <= inline:
                table += raw + b"\0" * (inline - len(raw))
            else:
                table += struct.pack(e + off_fmt, data_at + len(data))
                data += raw + (b"\0" if len(raw) % 2 else b"")
        return table + struct.pack(e + off_fmt, 0) + data

    first = len(header)
    if not exif_entries:
        return header + ifd(entries0, first)
    # Lay out IFD0 with a placeholder pointer, then place the Exif IFD after it.
    probe = ifd(list(entries0) + [(0x8769, LONG, 0)], first)
    exif_at = first + len(probe)
    return header + ifd(list(entries0) + [(0x8769, LONG, exif_at)], first) + ifd(exif_entries, exif_at)


def exif_block(big_endian=False, description=b"Seed description"):
    ifd0 = [
        (0x010E, ASCII, description),
        (0x010F, ASCII, b"SeedMaker  "),
        (0x0110, ASCII, b"Seed Model"),
        (0x0112, SHORT, 6),
    ]
    exif = [
        (0x9003, ASCII, b"2021:05:01 10:00:00"),
        (0x9011, ASCII, b"+02:00"),
        (0xA002, LONG, 4000),
        (0xA003, LONG, 3000),
    ]
    return tiff(ifd0, exif, big_endian)


XMP = (
    b'<?xpacket begin="\xef\xbb\xbf" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
    b' <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
    b'  <dc:description><rdf:Alt>\n'
    b'   <rdf:li xml:lang="de">Beschreibung</rdf:li>\n'
    b'   <rdf:li xml:lang="x-default">XMP caf\xc3\xa9 &amp; &#x263A; <![CDATA[<raw>]]></rdf:li>\n'
    b'  </rdf:Alt></dc:description>\n'
    b' </rdf:Description>\n'
    b'</rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>'
)

XMP_ATTRIBUTE = (
    b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
    b'<rdf:Description xmlns:d="http://purl.org/dc/elements/1.1/" d:description="Attribute &lt;value&gt;"/>'
    b'</rdf:RDF></x:xmpmeta>'
)


def iptc(caption=b"IPTC caption \xc3\xbc", utf8=True):
    records = b""
    if utf8:
        records += b"\x1c\x01\x5a" + struct.pack(">H", 3) + b"\x1b%G"
    records += b"\x1c\x02\x00" + struct.pack(">H", 2) + b"\x00\x04"
    records += b"\x1c\x02\x78" + struct.pack(">H", len(caption)) + caption
    return records


def resource(rid, data):
    return b"8BIM" + struct.pack(">H", rid) + b"\0\0" + struct.pack(">I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


# --- containers --------------------------------------------------------------------------------

def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


SOF0 = segment(0xC0, bytes([8, 0, 16, 0, 24, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))  # 24x16


def jpeg(*segments):
    return b"\xff\xd8" + b"".join(segments) + SOF0 + b"\xff\xd9"


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(*chunks):
    ihdr = chunk(b"IHDR", struct.pack(">II", 7, 5) + bytes([8, 2, 0, 0, 0]))
    return b"\x89PNG\r\n\x1a\n" + ihdr + b"".join(chunks) + chunk(b"IEND", b"")


def riff_chunk(kind, data):
    return kind + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def webp(flags, *chunks):
    vp8x = riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + (9).to_bytes(3, "little") + (4).to_bytes(3, "little"))
    body = b"WEBP" + vp8x + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, payload):
    return box(kind, bytes([version, 0, 0, 0]) + payload)


def heif(brand, compatible, image_type, exif, xmp):
    ftyp = box(b"ftyp", brand + b"\0\0\0\0" + b"".join(compatible))
    hdlr = full_box(b"hdlr", 0, b"\0" * 4 + b"pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, struct.pack(">H", 1))
    infes = (
        full_box(b"infe", 2, struct.pack(">HH", 1, 0) + image_type + b"\0")
        + full_box(b"infe", 2, struct.pack(">HH", 2, 0) + b"Exif" + b"\0")
        + full_box(b"infe", 2, struct.pack(">HH", 3, 0) + b"mime" + b"\0" + b"application/rdf+xml\0")
    )
    iinf = full_box(b"iinf", 0, struct.pack(">H", 3) + infes)
    iref = full_box(b"iref", 0, box(b"cdsc", struct.pack(">HHH", 2, 1, 1)) + box(b"cdsc", struct.pack(">HHH", 3, 1, 1)))
    iprp = box(b"iprp", box(b"ipco", full_box(b"ispe", 0, struct.pack(">II", 640, 480)))
               + full_box(b"ipma", 0, struct.pack(">IHB", 1, 1, 1) + b"\x81"))
    exif_item = b"\0\0\0\0" + exif

    def iloc(base):
        entries = struct.pack(">HHHII", 2, 0, 1, base, len(exif_item)) + struct.pack(">HHHII", 3, 0, 1, base + len(exif_item), len(xmp))
        return full_box(b"iloc", 0, b"\x44\x00" + struct.pack(">H", 2) + entries)

    def meta(base):
        return full_box(b"meta", 0, hdlr + pitm + iloc(base) + iinf + iref + iprp)

    base = len(ftyp) + len(meta(0)) + 8
    return ftyp + meta(base) + box(b"mdat", exif_item + xmp)


CANON_UUID = bytes.fromhex("85c0b687820f11e08111f4ce462b6a48")
XMP_UUID = bytes.fromhex("be7acfcb97a942e89c71999491e3afac")


def raw_profile(name, data):
    hexed = data.hex()
    lines = "\n".join(hexed[i:i + 72] for i in range(0, len(hexed), 72))
    return ("\n%s\n%8d\n%s\n" % (name, len(data), lines)).encode()


# --- targets -----------------------------------------------------------------------------------

def metadata_seeds():
    le, be = exif_block(False), exif_block(True)
    write("metadata", "seed-jpeg-exif.jpg", jpeg(segment(0xE1, b"Exif\0\0" + le)))
    write("metadata", "seed-jpeg-xmp-iptc.jpg", jpeg(
        segment(0xE1, b"Exif\0\0" + be),
        segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + XMP),
        segment(0xED, b"Photoshop 3.0\0" + resource(0x0404, iptc()))))
    write("metadata", "seed-tiff-le.tif", tiff(
        [(0x0100, SHORT, 32), (0x0101, SHORT, 24), (0x010E, ASCII, b"TIFF description"), (0x010F, ASCII, b"Maker"),
         (0x0112, SHORT, 1), (0x02BC, BYTE, XMP_ATTRIBUTE), (0x83BB, UNDEFINED, iptc(utf8=False))],
        [(0x9003, ASCII, b"2019:12:31 23:59:59")]))
    write("metadata", "seed-tiff-be.tif", tiff(
        [(0x0100, LONG, 4000), (0x0101, LONG, 3000), (0x010F, ASCII, b"Big Endian Inc"),
         (0x8649, UNDEFINED, resource(0x0404, iptc()))],
        [(0xA002, LONG, 4000), (0xA003, LONG, 3000)], big_endian=True))
    write("metadata", "seed-bigtiff-le.tif", tiff(
        [(0x0100, LONG, 64), (0x0101, LONG, 48), (0x010E, ASCII, b"BigTIFF description"), (0x010F, ASCII, b"Maker")],
        bigtiff=True))
    write("metadata", "seed-tiff-orf.orf", b"IIRO" + tiff([(0x010F, ASCII, b"OLYMPUS"), (0x0100, SHORT, 8), (0x0101, SHORT, 8)])[4:])
    write("metadata", "seed-png-exif.png", png(
        chunk(b"eXIf", le),
        chunk(b"iTXt", b"XML:com.adobe.xmp\0\0\0\0\0" + XMP)))
    write("metadata", "seed-png-ztxt.png", png(
        chunk(b"zTXt", b"Raw profile type exif\0\0" + zlib.compress(raw_profile("exif", b"Exif\0\0" + be))),
        chunk(b"iTXt", b"XML:com.adobe.xmp\0\1\0\0\0" + zlib.compress(XMP_ATTRIBUTE)),
        chunk(b"tEXt", b"Raw profile type iptc\0" + raw_profile("iptc", iptc()))))
    write("metadata", "seed-webp-exif.webp", webp(0x0C, riff_chunk(b"VP8L", b"\x2f\0\0\0\0"),
                                                 riff_chunk(b"EXIF", le), riff_chunk(b"XMP ", XMP)))
    write("metadata", "seed-heif-exif.heic", heif(b"heic", [b"mif1", b"heic"], b"hvc1", be, XMP))
    write("metadata", "seed-avif-exif.avif", heif(b"avif", [b"mif1", b"miaf", b"avif"], b"av01", le, XMP_ATTRIBUTE))
    write("metadata", "seed-jxl-exif.jxl",
          b"\0\0\0\x0cJXL \r\n\x87\n" + box(b"ftyp", b"jxl \0\0\0\0jxl ")
          + box(b"Exif", b"\0\0\0\0" + le) + box(b"xml ", XMP) + box(b"jxlc", b"\xff\x0a\0\0"))
    cmt1 = tiff([(0x010F, ASCII, b"Canon"), (0x0110, ASCII, b"Canon EOS R5"), (0x0112, SHORT, 8)])
    cmt2 = tiff([(0x9003, ASCII, b"2022:02:28 12:34:56"), (0x9011, ASCII, b"-05:00")])
    write("metadata", "seed-cr3-cmt.cr3",
          box(b"ftyp", b"crx \0\0\0\1crx isom")
          + box(b"moov", box(b"uuid", CANON_UUID + box(b"CMT1", cmt1) + box(b"CMT2", cmt2)))
          + box(b"uuid", XMP_UUID + XMP))
    resources = resource(0x0404, iptc()) + resource(0x0424, XMP) + resource(0x0422, le)
    write("metadata", "seed-psd-resources.psd",
          b"8BPS" + struct.pack(">H6xHIIHH", 1, 3, 10, 20, 8, 3) + struct.pack(">I", 0)
          + struct.pack(">I", len(resources)) + resources + b"\0" * 8)
    write("metadata", "seed-none-text.txt", b"just some text, not an image\n")
    write("metadata", "seed-crw-trailer.crw", crw(recipe_block(0xFFFF00F4, b"\1\2\3\4") + recipe_block(0xFFFF00F6, XMP)))


# Selector bytes of MetadataPayloadFuzz.Container, in declaration order.
CONTAINERS = [
    "jpegExif", "jpegXMP", "jpegPhotoshop", "jpegIPTC",
    "pngExif", "pngXMP", "pngCompressedXMP", "pngRawProfileExif", "pngRawProfileIPTC",
    "webpExif", "webpXMP",
    "tiffXMP", "tiffIPTC", "tiffPhotoshop",
    "heifExif", "heifXMP",
    "jxlExif", "jxlXMP",
    "cr3IFD0", "cr3Split", "cr3XMP",
    "psdResources",
    "xmpPacket",
    "crwTrailer",
]

# A hole in a sparse file, as SparseFuzzFile (Tests/MetadataTests/SparseFuzzFile.swift) reads
# it: the marker and a 4-byte length stand for that many zero bytes the file does not store.
HOLE_MARKER = b"\0photod-hole\0"


def hole(length):
    return HOLE_MARKER + struct.pack(">I", length)


def expanded_size(data):
    size, position = len(data), 0
    while (found := data.find(HOLE_MARKER, position)) >= 0 and found + len(HOLE_MARKER) + 4 <= len(data):
        length = struct.unpack(">I", data[found + len(HOLE_MARKER):found + len(HOLE_MARKER) + 4])[0]
        size += length - len(HOLE_MARKER) - 4
        position = found + len(HOLE_MARKER) + 4
    return size


def recipe_block(kind, data, claimed=None):
    return struct.pack(">II", kind, len(data) if claimed is None else claimed) + data


def crw(blocks):
    """A CRW: CIFF header, empty heap, the "CANON OPTIONAL DATA" trailer around the recipe blocks."""
    signature = b"CANON OPTIONAL DATA\0"
    length = expanded_size(blocks)
    header = b"II\x1a\0\0\0HEAPCCDR\x02\0\x01\0" + b"\0" * 14
    return (header + signature + b"\0\1\0\0" + struct.pack(">I", length) + blocks
            + signature + struct.pack(">I", length) + b"\0" * (64 - len(signature) - 4))


def sparse_xmp_block(hole_length):
    """An XMP recipe block whose packet is mostly a hole: it claims hole_length + a few bytes."""
    tail = b"<x:xmpmeta/>"
    return recipe_block(0xFFFF00F6, hole(hole_length) + tail, claimed=hole_length + len(tail))


def payload_seeds():
    le, be = exif_block(False), exif_block(True)
    resources = resource(0x0404, iptc()) + resource(0x0424, XMP_ATTRIBUTE) + resource(0x0422, be)
    cmt1 = tiff([(0x010F, ASCII, b"Canon"), (0x0112, SHORT, 3)], big_endian=False)
    cmt2 = tiff([(0x9003, ASCII, b"2022:02:28 12:34:56")], big_endian=False)
    payloads = {
        "jpegExif": le, "pngExif": be, "pngRawProfileExif": le, "webpExif": be, "heifExif": le,
        "jxlExif": be, "cr3IFD0": le,
        "cr3Split": struct.pack(">H", len(cmt1)) + cmt1 + cmt2,
        "jpegXMP": XMP, "pngXMP": XMP_ATTRIBUTE, "pngCompressedXMP": XMP, "webpXMP": XMP, "tiffXMP": XMP_ATTRIBUTE,
        "heifXMP": XMP, "jxlXMP": XMP, "cr3XMP": XMP, "xmpPacket": XMP,
        "jpegIPTC": iptc(), "pngRawProfileIPTC": iptc(utf8=False), "tiffIPTC": iptc(),
        "jpegPhotoshop": resources, "tiffPhotoshop": resources, "psdResources": resources,
        "crwTrailer": recipe_block(0xFFFF00F4, b"\1\2\3\4") + recipe_block(0xFFFF00F6, XMP),
    }
    for index, name in enumerate(CONTAINERS):
        write("metadata-payload", "seed-%s.bin" % name, bytes([index]) + payloads[name])
    # UTF-16 XMP and a second language-alternative shape.
    utf16 = XMP.decode("utf-8").replace("\ufeff", "").encode("utf-16-le")
    write("metadata-payload", "seed-xmpPacket-utf16.bin", bytes([CONTAINERS.index("xmpPacket")]) + b"\xff\xfe" + utf16)
    # photod issue 11, item 4: a trailer block claiming 3.46 GB of a sparse file.
    write("metadata-payload", "seed-crwTrailer-sparse.bin",
          bytes([CONTAINERS.index("crwTrailer")]) + sparse_xmp_block(3_460_000_000))


def varlink_seeds():
    def stream(limit, cuts, seed, *messages):
        return bytes([limit, cuts]) + struct.pack(">H", seed) + b"".join(messages)

    call = b'{"method":"io.photod.Library.ListAssets","parameters":{"limit":10,"after":null}}\0'
    more = b'{"method":"io.photod.Library.Subscribe","parameters":{},"more":true}\0'
    info = b'{"method":"org.varlink.service.GetInfo"}\0'
    oneway = b'{"method":"a.B","oneway":true,"parameters":{"x":[1,2.5,"\\u00e9",{"y":false}]}}\0'
    write("varlink", "seed-valid-calls", stream(0x80, 3, 0x1234, call, more, info, oneway))
    write("varlink", "seed-valid-bytewise", stream(0x80, 0xFF, 0, info, oneway))
    write("varlink", "seed-valid-pending", stream(0x80, 2, 7, info, b'{"method":"a.'))
    write("varlink", "seed-valid-at-limit", stream(16, 4, 99, b'{"method":"a.B"}\0', b'{"method":"c"}\0'))
    write("varlink", "seed-toolarge-frame", stream(8, 1, 5, b'{"method":"a.B"}\0'))
    write("varlink", "seed-toolarge-partial", stream(4, 3, 42, b"\0", b"abcdefgh"))
    write("varlink", "seed-badcall-mixed", stream(0x80, 5, 0xBEEF,
                                                   b"\0", b"[]\0", b"not json\0", b'{"method":""}\0',
                                                   b'{"method":"a.B","more":true,"oneway":true}\0',
                                                   b'{"method":7}\0', b'{"method":"a.\xff"}\0', info))


if __name__ == "__main__":
    metadata_seeds()
    payload_seeds()
    varlink_seeds()
