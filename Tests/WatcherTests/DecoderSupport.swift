import FileSystem
@testable import Watcher

/// Synthetic events for decoder tests: folders /lib (wd 1), /lib/sub (wd 2), /lib/sub/deep (wd 3),
/// /other (wd 4, a second root).
struct DecoderFixture {
    static let start = ContinuousClock.now
    var decoder = WatchEventDecoder()

    init() {
        decoder.watched(1, path: p("/lib"))
        decoder.watched(2, path: p("/lib/sub"))
        decoder.watched(3, path: p("/lib/sub/deep"))
        decoder.watched(4, path: p("/other"))
    }

    /// Decodes `events` at `offset` after `start`.
    mutating func decode(_ events: [WatchEvent], at offset: Duration = .zero) -> [WatchAction] {
        decoder.decode(events, now: Self.start + offset)
    }

    /// Expires held moves at `offset` after `start`.
    mutating func expire(at offset: Duration) -> [WatchAction] {
        decoder.expire(now: Self.start + offset)
    }
}

/// A name as bytes.
func p(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A path.
func p(_ text: String) -> PathBytes { PathBytes(text) }

/// One synthetic event.
func event(_ wd: Int32, _ mask: UInt32, _ name: String = "", cookie: UInt32 = 0) -> WatchEvent {
    WatchEvent(wd: wd, mask: mask, cookie: cookie, name: p(name))
}

let directoryFlag = WatchMask.isDirectory
