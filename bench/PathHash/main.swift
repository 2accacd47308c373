// Measures what the path type costs where photod hashes paths (the reconcile plan's dictionary
// of 10k–100k indexed files): today's byte-buffer `PathKey` against swift-system's `FilePath`.
// Run: swift run -c release path-hash-bench [COUNT]
import FileSystem
import SystemPackage

/// Library-like paths: /home/user/Pictures/<year>/<event>/IMG_<n>.JPG, some deeper and longer.
func makePaths(_ count: Int) -> [[UInt8]] {
    (0..<count).map { n in
        let event = ["Trip to the coast", "Birthday", "Garden", "Skiing", "Wedding of Anna and Ben"][n % 5]
        let deep = n % 7 == 0 ? "/raw/exported/edited" : ""
        return Array("/home/user/Pictures/\(2010 + n % 15)/\(event) \(n % 97)\(deep)/IMG_\(100_000 + n).JPG".utf8)
    }
}

/// Nanoseconds per item of `body` over `count` items, best of five runs.
func measure(_ count: Int, _ body: () -> Int) -> (Double, Int) {
    var best = Double.infinity
    var check = 0
    for _ in 0..<5 {
        let start = ContinuousClock.now
        check = body()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds * 1e9 / Double(count))
    }
    return (best, check)
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let paths = makePaths(count)
let keys = paths.map(PathKey.init)
let filePaths = paths.map { bytes in
    bytes.withUnsafeBufferPointer { buffer in
        FilePath(platformString: Array(buffer.map { CChar(bitPattern: $0) } + [0]))
    }
}

let (keyBuild, _) = measure(count) { Dictionary(uniqueKeysWithValues: zip(keys, 0..<count)).count }
let keyTable = Dictionary(uniqueKeysWithValues: zip(keys, 0..<count))
let (keyLookup, keyHits) = measure(count) { keys.reduce(0) { $0 + (keyTable[$1] == nil ? 0 : 1) } }
let (keyMake, _) = measure(count) { paths.reduce(0) { $0 + PathKey($1).bytes.count } }

let (pathBuild, _) = measure(count) { Dictionary(uniqueKeysWithValues: zip(filePaths, 0..<count)).count }
let pathTable = Dictionary(uniqueKeysWithValues: zip(filePaths, 0..<count))
let (pathLookup, pathHits) = measure(count) { filePaths.reduce(0) { $0 + (pathTable[$1] == nil ? 0 : 1) } }
let (pathMake, _) = measure(count) {
    paths.reduce(0) { total, bytes in
        total + bytes.withUnsafeBufferPointer { buffer in
            FilePath(platformString: Array(buffer.map { CChar(bitPattern: $0) } + [0])).length
        }
    }
}

precondition(keyHits == count && pathHits == count, "every path must be found")
func row(_ name: String, _ values: (Double, Double, Double)) -> String {
    name.rightPadded(to: 24)
        + [values.0, values.1, values.2].map { String(Int($0.rounded())).leftPadded(to: 12) }.joined()
}
extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
print("\(count) paths, ns per path (best of 5)")
print("".rightPadded(to: 24) + "insert".leftPadded(to: 12) + "lookup".leftPadded(to: 12)
      + "make".leftPadded(to: 12))
print(row("PathKey ([UInt8])", (keyBuild, keyLookup, keyMake)))
print(row("FilePath (swift-system)", (pathBuild, pathLookup, pathMake)))
