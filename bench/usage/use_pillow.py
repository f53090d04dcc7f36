import io
from PIL import Image
b = io.BytesIO(); Image.new("RGB", (4, 4), "red").save(b, "TIFF"); b.seek(0)
im = Image.open(b); print(im.format, im.size, im.getpixel((0, 0)))
