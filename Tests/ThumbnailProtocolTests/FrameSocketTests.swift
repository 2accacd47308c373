import Foundation
import Glibc
import Testing
import ThumbnailProtocol

@Suite struct FrameSocketTests {
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aFrameArrivesWithItsDescriptor() throws {
        let (left, right) = try socketPair()
        defer { close(left); close(right) }
        let file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        try #require(file >= 0)
        defer { close(file) }
        let request = ThumbnailRequest(id: 5, width: 64, height: 64)
        try FrameSocket.send(request.encode(), on: left, passing: file)
        let chunk = try FrameSocket.receive(on: right)
        #expect(chunk.bytes == request.encode())
        try #require(chunk.descriptors.count == 1)
        defer { close(chunk.descriptors[0]) }
        #expect(fcntl(chunk.descriptors[0], F_GETFD) & FD_CLOEXEC != 0)
        var mine = stat(), theirs = stat()
        fstat(file, &mine)
        fstat(chunk.descriptors[0], &theirs)
        #expect(mine.st_ino == theirs.st_ino && mine.st_dev == theirs.st_dev)
    }

    @Test func extraDescriptorsAreClosedNotKept() throws {
        let (left, right) = try socketPair()
        defer { close(left); close(right) }
        let file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        try FrameSocket.send([1], on: left, passing: file)
        let chunk = try FrameSocket.receive(on: right, maxDescriptors: 0)
        #expect(chunk.bytes == [1])
        #expect(chunk.descriptors.isEmpty)
    }

    @Test func endOfStreamIsAnEmptyChunk() throws {
        let (left, right) = try socketPair()
        defer { close(right) }
        let big = [UInt8](repeating: 7, count: 300_000)
        let writer = Thread { try? FrameSocket.send(big, on: left); close(left) }
        writer.start()
        var received: [UInt8] = []
        while true {
            let chunk = try FrameSocket.receive(on: right)
            if chunk.bytes.isEmpty { break }
            received += chunk.bytes
        }
        #expect(received == big)
    }

    @Test func sendingToAClosedPeerIsAnErrorNotSIGPIPE() throws {
        let (left, right) = try socketPair()
        defer { close(left) }
        close(right)
        #expect(throws: ThumbnailSocketError.system(call: "sendmsg", errno: EPIPE)) {
            try FrameSocket.send([1, 2, 3], on: left)
        }
    }
}
