// libFuzzer target `toml`: TOMLParser.parse on any text, as photod reads its config file.
// Invariants: Tests/TOMLTests/TOMLFuzzChecks.swift (shared with TOMLHostileTests, which replays
// fuzz/seeds/toml and fuzz/regressions/toml). Built by fuzz/run; see fuzz/README.md.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let problems = TOMLFuzz.violations(in: Array(UnsafeBufferPointer(start: data, count: size)))
    if !problems.isEmpty {
        // The message reaches libFuzzer's output; the trap makes it save the input as a crash.
        fatalError("toml invariant violated:\n  " + problems.joined(separator: "\n  "))
    }
    return 0
}
