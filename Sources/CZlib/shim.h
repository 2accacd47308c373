// zlib, for the compressed PNG text chunks (zTXt, compressed iTXt) that carry EXIF, IPTC and XMP.
#include <zlib.h>
