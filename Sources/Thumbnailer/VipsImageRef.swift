import CVips

/// Owns one reference to a VipsImage; the only way the worker holds images, so each is unreffed once.
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    deinit { g_object_unref(pointer) }

    var width: Int32 { vips_image_get_width(pointer) }
    var height: Int32 { vips_image_get_height(pointer) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Runs a libvips call that writes an output image, turning failure into the error text.
    static func make(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32)
        throws(RenderError) -> VipsImageRef {
        var output: UnsafeMutablePointer<VipsImage>?
        let result = call(&output)
        guard result == 0, let output else {
            if let output { g_object_unref(output) }
            throw RenderError(VipsRuntime.takeError())
        }
        return VipsImageRef(output)
    }

    /// Decodes the whole pipeline into memory once, so encoding twice does not decode twice.
    func inMemory() throws(RenderError) -> VipsImageRef {
        guard let copy = vips_image_copy_memory(pointer) else { throw RenderError(VipsRuntime.takeError()) }
        return VipsImageRef(copy)
    }

    /// Encodes with a libvips saver that returns a g_malloc'd buffer, copied out and freed here.
    func encode(_ save: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                         UnsafeMutablePointer<Int>) -> Int32) throws(RenderError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let result = save(pointer, &buffer, &length)
        defer { g_free(buffer) }
        guard result == 0, let buffer else { throw RenderError(VipsRuntime.takeError()) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }
}

/// A request libvips could not fulfil, with its error text.
struct RenderError: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// Whether libvips or GLib ran out of memory (vips_tracked's "out of memory", a thread it could not create).
    static func isExhaustion(_ message: String) -> Bool {
        message.contains("out of memory") || message.contains("Error creating thread")
    }
}
