"""Real files to attach in tests: images made with Pillow, PDFs with text pypdf can extract."""

from __future__ import annotations

import io

from PIL import Image


def png(width: int = 64, height: int = 48, colour: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def jpeg(width: int = 64, height: int = 48) -> bytes:
    out = io.BytesIO()
    Image.effect_noise((width, height), 60).convert("RGB").save(out, "JPEG", quality=90)
    return out.getvalue()


def noisy_png(width: int, height: int) -> bytes:
    """A PNG that does not compress: large on disk, like a photo saved as PNG."""
    out = io.BytesIO()
    Image.effect_noise((width, height), 80).convert("RGB").save(out, "PNG")
    return out.getvalue()


def gif_animated(width: int = 32, height: int = 32) -> bytes:
    colours = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    frames = [Image.new("RGB", (width, height), c) for c in colours]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def pdf(*pages: str) -> bytes:
    """A PDF with one page per text, in Helvetica, that pypdf extracts again."""
    objects: list[bytes] = [b"", b""]  # 1: catalog, 2: pages (filled in below)
    kids = []
    font = len(objects) + 1
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for text in pages or ("",):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode("latin-1")
        content = len(objects) + 1
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        page = len(objects) + 1
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>" % (font, content)
        )
        kids.append(page)
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    refs = b" ".join(b"%d 0 R" % k for k in kids)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (refs, len(kids))
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    trailer = b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
    out.write(trailer % (len(objects) + 1, xref))
    return out.getvalue()


def encrypted_pdf() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf("secret"))))
    writer.encrypt("a password")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
