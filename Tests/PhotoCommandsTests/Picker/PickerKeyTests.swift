import Testing

@testable import PhotoCommands

/// Keys from the bytes terminals send, whole or split across reads; replies never read as keys.
@Suite struct PickerKeyTests {
    static func keys(_ text: String) -> [PickerKey] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test func arrowsPagesHomeAndEndInEachSpelling() {
        #expect(Self.keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(Self.keys("\u{1B}OA\u{1B}OB") == [.up, .down])
        #expect(Self.keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
        #expect(Self.keys("\u{1B}[H\u{1B}[1~\u{1B}[7~\u{1B}OH") == [.home, .home, .home, .home])
        #expect(Self.keys("\u{1B}[F\u{1B}[4~\u{1B}[8~\u{1B}OF") == [.end, .end, .end, .end])
        // A modifier (Shift-Up) still reads as the arrow.
        #expect(Self.keys("\u{1B}[1;2A") == [.up])
    }

    @Test func enterSpaceSlashQuitAndControls() {
        #expect(Self.keys("\r\n /q") == [.enter, .enter, .space, .character("/"), .character("q")])
        #expect(Self.keys("\u{03}\u{04}\u{7F}\t") == [.interrupt, .endOfInput, .backspace, .tab])
        #expect(Self.keys("\u{1B}") == [.escape], "a lone ESC at the end of a read is the Esc key")
        #expect(Self.keys("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(Self.keys("\u{01}\u{1A}x") == [.character("x")], "other controls are no key")
        #expect(Self.keys("é写") == [.character("é"), .character("写")])
    }

    @Test func sequencesSplitAcrossReadsWait() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.feed(Array("6~".utf8)) == [.pageDown])
        #expect(decoder.feed([0xC3]) == [])
        #expect(decoder.feed([0xA9, 0x20]) == [.character("é"), .space])
    }

    @Test func terminalRepliesAreSwallowed() {
        // A kitty answer or a DA1 reply arriving late must not move, mark or quit.
        #expect(Self.keys("\u{1B}_Gi=31;OK\u{1B}\\q") == [.character("q")])
        #expect(Self.keys("\u{1B}[?62;4;22c") == [])
        #expect(Self.keys("\u{1B}]11;rgb:0000/0000/0000\u{07}j") == [.character("j")])
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xC2, 0x9B]) == [], "a C1 control (CSI as UTF-8) is no character")
    }
}

/// The picture protocol from simulated terminal replies.
@Suite struct PickerDetectionTests {
    static func detect(_ replies: [String]) -> PictureProtocol? {
        var detector = ProtocolDetector()
        for reply in replies { if let found = detector.feed(Array(reply.utf8)) { return found } }
        return nil
    }

    @Test func kittySixelOrText() {
        #expect(Self.detect([ScriptedTerminal.kittyReply]) == .kitty)
        #expect(Self.detect(["\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}[?62;22c"]) == .kitty)
        #expect(Self.detect([ScriptedTerminal.sixelReply]) == .sixel)
        #expect(Self.detect([ScriptedTerminal.plainReply]) == .text)
        #expect(Self.detect(["\u{1B}[?1;2c"]) == .text)
        // An error from kitty (not OK) is no kitty.
        #expect(Self.detect(["\u{1B}_Gi=31;ENOTSUPPORTED\u{1B}\\\u{1B}[?62c"]) == .text)
    }

    @Test func withoutDA1TheTimeoutDecides() {
        var detector = ProtocolDetector()
        #expect(detector.feed(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)) == nil)
        #expect(detector.fallback == .kitty)
        #expect(ProtocolDetector().fallback == .text)
        #expect(ProtocolDetector.query == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c")
    }

    @Test func kittyChunksHoldAtMost4096Bytes() {
        let data = String(repeating: "A", count: 10_000)
        let text = KittyGraphics.transmit(png: data, id: 7, columns: 30, rows: 15)
        let chunks = text.split(separator: "\u{1B}\\")
        #expect(chunks.count == 3)
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=100,t=d,i=7,c=30,r=15,C=1,q=2,m=1;"))
        #expect(chunks[1].hasPrefix("\u{1B}_Gq=2,m=1;"))
        #expect(chunks[2].hasPrefix("\u{1B}_Gq=2,m=0;"))
        #expect(chunks.allSatisfy { $0.split(separator: ";").last.map { $0.count <= 4096 } ?? false })
        #expect(!KittyGraphics.isBase64("AAAA\u{1B}\\"))
        #expect(KittyGraphics.isBase64("iVBORw0KGgo="))
    }
}

/// The worker's queue: lists first, thumbnails after, and an end.
@Suite struct PickerFetchQueueTests {
    @Test func listsBeforeThumbnailsThenTheEnd() async {
        let queue = PickerFetchQueue()
        queue.add(.thumbnail("a"))
        queue.add(.page(.group(name: "Beach", fallback: false), cursor: "10", limit: 10))
        queue.add(.groups)
        var order: [String] = []
        for _ in 0..<3 {
            switch await queue.next() {
            case .groups?: order.append("groups")
            case .page?: order.append("page")
            case .thumbnail(let id)?: order.append(id)
            case nil: order.append("end")
            }
        }
        #expect(order == ["page", "groups", "a"])
        let waiter = Task { await queue.next() }
        try? await Task.sleep(for: .milliseconds(20))
        queue.close()
        #expect(await waiter.value == nil)
        queue.add(.groups)
        #expect(await queue.next() == nil, "nothing is queued once closed")
    }
}
