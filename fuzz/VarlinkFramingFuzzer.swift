// libFuzzer target `varlink`: VarlinkFrameDecoder and VarlinkCall.parse on a peer's byte stream.
// Input layout and invariants: Tests/VarlinkTests/FramingFuzzChecks.swift (shared with the
// regression tests). Built by fuzz/run; see fuzz/README.md.
#if canImport(Glibc)
import Glibc
#endif

/// PHOTOD_FUZZ_SELFTEST=trap or =asan makes every input with a non-empty stream fail (a Swift
/// trap, or a heap overflow for AddressSanitizer to catch), to check that fuzz/run reports findings.
private let selfTest = getenv("PHOTOD_FUZZ_SELFTEST").map { String(cString: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let selfTest, size > VarlinkFuzzInput.headerLength {
        if selfTest == "asan" {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            defer { buffer.deallocate() }
            buffer[size] = 1  // one past the end
        }
        fatalError("PHOTOD_FUZZ_SELFTEST=\(selfTest): deliberate failure")
    }
    let problems = VarlinkFramingFuzz.violations(in: bytes)
    if !problems.isEmpty {
        // The message reaches libFuzzer's output; the trap makes it save the input as a crash.
        fatalError("varlink invariant violated:\n  " + problems.joined(separator: "\n  "))
    }
    return 0
}
