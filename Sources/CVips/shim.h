// Non-variadic wrappers: Swift cannot call libvips' NULL-terminated option-list functions.
// Only photod-thumbnailer links this module.
#ifndef PHOTOD_CVIPS_SHIM_H
#define PHOTOD_CVIPS_SHIM_H

#include <string.h>
#include <vips/vips.h>

static inline int photod_vips_init(const char *argv0) { return VIPS_INIT(argv0); }

/// glibc's Dl_info; dlfcn.h shows it and dladdr only under _GNU_SOURCE, which Swift's Glibc
/// module is built without. The asm label keeps this declaration apart from dlfcn.h's.
typedef struct { const char *dli_fname; void *dli_fbase; const char *dli_sname; void *dli_saddr; } photod_dl_info;
extern int photod_dladdr(const void *address, photod_dl_info *info) __asm__("dladdr");

/// Loads libvips' HEIF and JPEG XL modules (the formats photod decodes that libvips may build as
/// modules) from vips-modules-MAJOR.MINOR beside the libvips in use, as vips_init loads every module
/// when it finds that folder. Returns how many failed: a missing one only lacks its loader.
static inline int photod_vips_load_photo_modules(void) {
    static const char *const names[] = {"vips-heif", "vips-jxl"};
    const int count = sizeof names / sizeof names[0];
    photod_dl_info info;
    if (!photod_dladdr((const void *)vips_init, &info) || !info.dli_fname) return count;
    char *folder = g_path_get_dirname(info.dli_fname);
    int failures = 0;
    for (int index = 0; index < count; index++) {
        char *path = g_strdup_printf("%s/vips-modules-%d.%d/%s.%s", folder, vips_version(0), vips_version(1),
                                     names[index], G_MODULE_SUFFIX);
        GModule *module = g_module_open(path, G_MODULE_BIND_LAZY);
        // Modules register types, so they can never be unloaded (vips_init does the same).
        if (module) g_module_make_resident(module);
        else failures++;
        g_free(path);
    }
    g_free(folder);
    return failures;
}

/// Opens the image's header only (pixels stay undecoded): its size and orientation.
static inline VipsImage *photod_vips_header(VipsSource *source) {
    return vips_image_new_from_source(source, "", NULL);
}

/// Thumbnail straight from the source so loaders can shrink on load; never upscales; autorotates.
static inline int photod_vips_thumbnail_source(VipsSource *source, VipsImage **out, int width, int height, int fill) {
    return vips_thumbnail_source(source, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                 "crop", fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                                 "no_rotate", FALSE, NULL);
}

/// The same for an already loaded image (the HEIF thumbnail item).
static inline int photod_vips_thumbnail_image(VipsImage *in, VipsImage **out, int width, int height, int fill) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_DOWN,
                                "crop", fill ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                                "no_rotate", FALSE, NULL);
}

/// A JPEG decoded by libjpeg at 1/`shrink` of its size (1, 2, 4 or 8), top to bottom, then made
/// a thumbnail as `photod_vips_thumbnail_image` makes one.
static inline int photod_vips_thumbnail_jpeg(VipsSource *source, VipsImage **out, int shrink, int width, int height,
                                             int fill) {
    VipsImage *loaded = NULL;
    if (vips_jpegload_source(source, &loaded, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL)) return -1;
    int result = photod_vips_thumbnail_image(loaded, out, width, height, fill);
    // The thumbnail's pipeline holds its own reference to the loaded image.
    g_object_unref(loaded);
    return result;
}

/// Loads a HEIF/AVIF file's primary image, or with `thumbnail` its thumbnail item when it has one.
static inline int photod_vips_heifload(VipsSource *source, VipsImage **out, int thumbnail) {
    return vips_heifload_source(source, out, "thumbnail", thumbnail ? TRUE : FALSE, NULL);
}

/// JPEG cannot hold alpha: flatten onto white rather than the saver's black.
static inline int photod_vips_flatten_white(VipsImage *in, VipsImage **out) {
    double white[3] = {255, 255, 255};
    VipsArrayDouble *background = vips_array_double_new(white, 3);
    int result = vips_flatten(in, out, "background", background, NULL);
    vips_area_unref(VIPS_AREA(background));
    return result;
}

static inline int photod_vips_jpegsave(VipsImage *in, void **buffer, size_t *length, int quality) {
    return vips_jpegsave_buffer(in, buffer, length, "Q", quality, "strip", TRUE, "interlace", FALSE, NULL);
}

/// The PNG a request asked for: compression 1 with the SUB filter, speed before the last few
/// percent of size (adaptive filtering at level 3 took 4 ms for a 256 px thumbnail, half the job).
static inline int photod_vips_pngsave(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "compression", 1, "filter", VIPS_FOREIGN_PNG_FILTER_SUB,
                               "strip", TRUE, NULL);
}

/// The thumbnail cache's copy, stored without deflate: even level 1 took 3.8 ms of a 640x480
/// JPEG's 10 ms, for files half the size (bench/README.md, "Images"). The cache is bounded in
/// bytes, so it holds fewer thumbnails, each made in a third of the time.
static inline int photod_vips_pngsave_stored(VipsImage *in, void **buffer, size_t *length) {
    return vips_pngsave_buffer(in, buffer, length, "compression", 0, "filter", VIPS_FOREIGN_PNG_FILTER_NONE,
                               "strip", TRUE, NULL);
}

static inline int photod_vips_orientation(VipsImage *image) {
    int orientation = 1;
    if (!vips_image_get_typeof(image, VIPS_META_ORIENTATION) ||
        vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation)) return 1;
    return orientation;
}

static void *photod_vips_append_loader(void *item, void *a, void *b) {
    VipsObjectClass *object = VIPS_OBJECT_CLASS(item);
    VipsOperationClass *operation = VIPS_OPERATION_CLASS(item);
    const char *suffix = "load_source";
    size_t length = strlen(object->nickname), suffixLength = strlen(suffix);
    if (length <= suffixLength || strcmp(object->nickname + length - suffixLength, suffix) != 0) return NULL;
    if (operation->flags & (VIPS_OPERATION_BLOCKED | VIPS_OPERATION_DEPRECATED)) return NULL;
    char *buffer = a;
    size_t size = *(size_t *)b, used = strlen(buffer);
    if (used + length - suffixLength + 2 > size) return NULL;
    if (used) strcat(buffer, " ");
    strncat(buffer, object->nickname, length - suffixLength);
    return NULL;
}

/// Space-separated nicknames of the source loaders left after blocking (jpeg png webp ...).
static inline void photod_vips_loaders(char *buffer, size_t size) {
    buffer[0] = 0;
    vips_foreign_map("VipsForeignLoad", photod_vips_append_loader, buffer, &size);
}

static void photod_glib_discard(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// Library chatter (libjpeg's "premature end", GLib warnings) would reach photod's journal: drop it.
static inline void photod_glib_quiet(void) { g_log_set_default_handler(photod_glib_discard, NULL); }

#endif
