#if canImport(Glibc)
import Glibc
#endif
import FileSystem
import Logging
import Metadata
import PhotoAPI
import Posix
import Store
import Varlink

/// `OpenOriginal`: the original's bytes as a read-only descriptor passed with the reply, so an app
/// that cannot see the folder reads exactly the files it was allowed, and nothing else.
///
/// Only the owner gets the file's own descriptor. Every app runs as the owner's user, so a
/// descriptor of the file would let it reopen /proc/self/fd/N for writing: an app gets a sealed
/// memfd copy up to `sealedCopyLimit`, and a pipe photod fills above it, or once the app holds
/// as many copies as `OriginalCopies` allows it.
struct OriginalOpener: Sendable {
    let assets: VisibleAsset
    let feeds: OriginalFeeds
    let copies: OriginalCopies
    let logger: Logger

    /// The largest file an app gets as a sealed in-memory copy: a camera's or phone's JPEG, HEIC
    /// or most raw files; a video or a larger raw file streams through a pipe instead, so one
    /// call never pins more than this in memory.
    static let sealedCopyLimit = 32 << 20

    /// What a client that did not offer to receive descriptors is told.
    static let descriptorsHint = "OpenOriginal answers with a file descriptor passed over the socket (SCM_RIGHTS); "
        + "a client that receives them (recvmsg with a control buffer) sets acceptFileDescriptors: true. "
        + "One that cannot calls with stream: true and more: true for the bytes themselves, "
        + "or gets the pixels with io.photod.Library.RequestImage"

    /// Opens the asset's file and replies with a descriptor of its bytes (index 0) and its facts.
    func open(_ parameters: OpenOriginalParameters, access: LibraryAccess, caller: Caller, more: Bool,
              replier: VarlinkReplier) async throws {
        if parameters.stream == true {
            // Bytes in the replies, or descriptors: one answer, never both.
            guard parameters.acceptFileDescriptors != true else { throw VarlinkError.invalidParameter("stream") }
            guard more else { throw VarlinkError.expectedMore() }
        } else if parameters.acceptFileDescriptors != true {
            throw VarlinkError(LibraryInterface.Error.fileDescriptorsRequired,
                               parameters: FileDescriptorsRequiredError(hint: Self.descriptorsHint))
        }
        let asset = try await assets.find(parameters.id, access)
        // Opened fresh through real folders only (O_NOFOLLOW at every step), read-only.
        let file: OpenFile
        switch AssetFile.open(asset, for: access) {
        case .success(let opened): file = opened
        case .failure(let error): throw unavailable(parameters.id, "the file cannot be opened (\(error.reason))")
        }
        let size = Int(file.info.size)
        let name = AssetMapper.wireName(asset.path.lastComponent)
        var reply = OpenOriginalReply(
            fileDescriptor: 0, name: name.text, nameBytes: name.bytes, size: size,
            modified: ISOTime.utcString(nanoseconds: file.info.mtimeNs), format: asset.content.format,
            descriptor: .file)
        if parameters.stream == true {
            reply.fileDescriptor = nil
            reply.descriptor = nil
            try await OriginalStreamer.send(file.fileDescriptor, size: size, reply: reply, id: parameters.id,
                                            replier: replier)
            return
        }
        if caller.isOwner {
            // The owner may write the file anyway; export needs its times and size as they are.
            try await replier.reply(reply, fileDescriptors: [file.fileDescriptor])
            return
        }
        if size <= Self.sealedCopyLimit, let place = copies.reserve(caller.appID, bytes: size) {
            let source = file.fileDescriptor
            let copy = await DetachedThread.result(name: "photod-copy") {
                SealedCopy.make(copying: source, count: size, name: "photod-original")
            }
            let sealed: (descriptor: Int32, size: Int)
            switch copy {
            case .success(let made): sealed = made
            case .failure(let error):
                place.release()
                throw unavailable(parameters.id, "photod could not make a sealed copy of the file (\(error))")
            }
            defer { close(sealed.descriptor) }
            // A copy the ledger cannot count back goes the way a large file goes: through a pipe.
            if place.hold(sealed.descriptor) {
                reply.size = sealed.size
                reply.descriptor = .sealedCopy
                try await replier.reply(reply, fileDescriptors: [sealed.descriptor])
                return
            }
        }
        reply.descriptor = .pipe
        try await stream(file.fileDescriptor, size: size, reply: reply, id: parameters.id, caller: caller,
                         replier: replier)
    }

    /// Replies with the read end of a pipe, then fills it from `source` on a thread of its own.
    private func stream(_ source: Int32, size: Int, reply: OpenOriginalReply, id: String, caller: Caller,
                        replier: VarlinkReplier) async throws {
        guard let ticket = feeds.admit(caller.appID) else {
            let held = copies.holding(caller.appID)
            let limit = copies.limitPerCaller
            throw unavailable(id, "this app holds \(held.copies) sealed copies of originals (\(held.bytes >> 20) MiB; "
                              + "at most \(limit.copies) or \(limit.bytes >> 20) MiB) and has \(OriginalFeeds.perCaller) "
                              + "originals being streamed to it through pipes (a file over "
                              + "\(Self.sealedCopyLimit >> 20) MiB always comes as a pipe); close or read some first")
        }
        // The feed keeps its own descriptor of the file; the reply's goes when this returns.
        let own = fcntl(source, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else {
            ticket.release()
            throw unavailable(id, "photod is out of file descriptors")
        }
        let ends: (read: Int32, write: Int32)
        switch PipeFeed.pipe() {
        case .success(let pipe): ends = pipe
        case .failure(let error):
            close(own)
            ticket.release()
            throw unavailable(id, "photod could not make a pipe (\(error))")
        }
        do {
            try await replier.reply(reply, fileDescriptors: [ends.read])
        } catch {
            close(ends.read)
            close(ends.write)
            close(own)
            ticket.release()
            throw error
        }
        close(ends.read)
        let feed = ticket.feed
        let logger = self.logger
        let started = DetachedThread.start(name: "photod-feed") {
            let outcome = feed.run(from: own, count: size, to: ends.write, idleTimeout: OriginalFeeds.idleTimeout)
            close(ends.write)
            close(own)
            ticket.release()
            logger.debug("an original's pipe ended", metadata: ["asset": "\(id)", "outcome": "\(outcome)"])
        }
        if !started {
            close(ends.write)
            close(own)
            ticket.release()
        }
    }

    private func unavailable(_ id: String, _ reason: String) -> VarlinkError {
        VarlinkError(LibraryInterface.Error.imageUnavailable, parameters: ImageUnavailableError(id: id, reason: reason))
    }
}
