import CVips
import Glibc

/// libvips started the way the worker needs it: quiet, one thread, no cache, untrusted loaders blocked.
public enum VipsRuntime {
    /// Starts libvips; loadable modules (heif, jxl) are loaded here, before the sandbox closes the door.
    public static func start(program: String) throws(SandboxError) {
        // Any value silences libvips' own warnings; the handler below silences the libraries under it.
        setenv("VIPS_WARNING", "0", 1)
        // No run-time code generation (ORC): the seccomp filter refuses executable memory.
        setenv("VIPS_NOVECTOR", "1", 1)
        photod_glib_quiet()
        // vips_init loads every module in $VIPSHOME/lib/vips-modules-x.y: ImageMagick, Poppler and
        // OpenSlide too, which are blocked below anyway. A prefix with no such folder stops it, and only
        // the modules photod uses are loaded: 8 MiB less in every worker (bench/README.md, "Images"),
        // and none of those libraries' code in its address space.
        setenv("VIPSHOME", "/dev/null", 1)
        guard photod_vips_init(program) == 0 else { throw SandboxError("vips_init", errno: EINVAL) }
        // A module that is missing only lacks its loader, which the hello line's list shows.
        _ = photod_vips_load_photo_modules()
        // photod runs one worker per core, so each worker uses one.
        vips_concurrency_set(1)
        // Every request is a different file: caching operations would only hold memory.
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        // ImageMagick, PDF, matrix, FITS and the like: large attack surface for formats photod does not show.
        vips_block_untrusted_set(1)
        // Not flagged untrusted in 8.14, but a text matrix is no photo and its parser no help to anyone.
        vips_operation_block_set("VipsForeignLoadMatrix", 1)
        // 8.14 flags these untrusted too, but JPEG XL and JPEG 2000 are photo formats people keep,
        // and libjxl and OpenJPEG decode them here inside the seccomp filter and memory limit.
        vips_operation_block_set("VipsForeignLoadJxl", 0)
        vips_operation_block_set("VipsForeignLoadJp2k", 0)
    }

    /// The libvips version, e.g. "8.14.1".
    public static var version: String { String(cString: vips_version_string()) }

    /// The source loaders left after blocking, e.g. ["jpeg", "png", "webp", "heif"].
    public static var loaders: [String] {
        var buffer = [CChar](repeating: 0, count: 1024)
        photod_vips_loaders(&buffer, buffer.count)
        let text = buffer.withUnsafeBufferPointer { $0.baseAddress.map { String(cString: $0) } ?? "" }
        return text.split(separator: " ").map(String.init)
    }

    /// Takes and clears libvips' error text, cut to one safe line.
    static func takeError() -> String {
        guard let copy = vips_error_buffer_copy() else { return "libvips failed" }
        defer { g_free(copy) }
        let text = String(cString: copy).split(whereSeparator: \.isNewline).joined(separator: "; ")
        return text.isEmpty ? "libvips failed" : text
    }
}
