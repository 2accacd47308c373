// zlib: the compressed PNG text chunks (zTXt, compressed iTXt) that carry EXIF, IPTC and XMP, and
// the CRC-32 of the PNG chunks the thumbnail cache writes and checks.
#include <zlib.h>
