// libFuzzer target `metadata-payload`: the first byte picks a container (JPEG APP1/APP13, PNG
// eXIf/iTXt/zTXt/tEXt, WebP EXIF/XMP, TIFF tags 700/33723/34377, HEIF Exif/mime items, JPEG XL
// Exif/xml boxes, CR3 CMT1, or a bare XMP packet); the rest is the payload, wrapped with correct
// lengths, CRCs and offsets, so mutations land in the EXIF/TIFF, XMP, IPTC and Photoshop parsers.
// Layout and invariants: Tests/MetadataTests/MetadataFuzzChecks.swift. Built by fuzz/run.

nonisolated(unsafe) private let scratch = FuzzScratchFile()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let problems = MetadataPayloadFuzz.violations(in: bytes, scratch: scratch)
    if !problems.isEmpty {
        fatalError("metadata-payload invariant violated:\n  " + problems.joined(separator: "\n  "))
    }
    return 0
}
