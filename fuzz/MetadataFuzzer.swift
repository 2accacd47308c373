// libFuzzer target `metadata`: MetadataReader.read on whole files of any format (format sniffing
// and every container walker: JPEG, TIFF/BigTIFF, PNG, WebP, HEIF/AVIF, JPEG XL, CR3, ...; then
// libexif, XMP, IPTC). Invariants: Tests/MetadataTests/MetadataFuzzChecks.swift (shared with the
// regression tests). Built by fuzz/run; see fuzz/README.md.

/// One scratch file for the whole run: each input is also read back through a file descriptor.
nonisolated(unsafe) private let scratch = FuzzScratchFile()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let problems = MetadataFuzz.violations(in: bytes, scratch: scratch)
    if !problems.isEmpty {
        // The message reaches libFuzzer's output; the trap makes it save the input as a crash.
        fatalError("metadata invariant violated:\n  " + problems.joined(separator: "\n  "))
    }
    return 0
}
