import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystem
import PhotoAPI
import SafeText

/// `photoctl thumbnail ID`: a display-sized image of one photo, into a file or a pipe.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write a display-sized image of a photo to a file or a pipe.",
        discussion: """
            photod scales the photo into a SIZE×SIZE box (RequestImage). The image goes to FILE \
            (-o), which is never replaced without --force and never seen half-written; without -o \
            it goes to standard output, but only into a pipe or a file, never onto a terminal. \
            --fast takes what is already there (the photo's embedded thumbnail or the cache) \
            instead of decoding the photo, and for a camera raw that cannot be decoded here it is \
            the way to see its embedded preview. The image is a JPEG unless --format or FILE's \
            extension (.png) says PNG; FILE's extension and --format must agree. With --json and \
            -o, the image's facts are printed as JSON.

            Examples:
              photoctl thumbnail ~/Pictures/IMG_0001.jpg -o small.png
              photoctl thumbnail --fast --size 512 ID | feh -
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("An asset id, as printed by `photoctl list`, or the photo's file.", valueName: "id|path"),
              completion: LibraryCompletion.assets)
    var photo: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The box's side in pixels, 1 to 2048.", valueName: "n"))
    var size = 256

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the image to this file.", valueName: "file"))
    var output: String?

    @Option(name: .long, help: "The image's encoding: jpeg or png (default: FILE's extension, .jpg or .png, else jpeg).")
    var format: ImageFormat?

    @Flag(name: .long, help: "Take the image already there (embedded or cached) rather than decode the photo.")
    var fast = false

    @Flag(name: .long, help: "Replace FILE when it exists.")
    var force = false

    func validate() throws {
        _ = try encoding()
        guard (1...RequestImageParameters.maximumSide).contains(size) else {
            throw ValidationError("--size must be 1 to \(RequestImageParameters.maximumSide), not \(size)")
        }
        if output == nil {
            if isatty(STDOUT_FILENO) != 0 {
                throw ValidationError("not writing an image onto the terminal; name a file with -o FILE, or pipe the output")
            }
            if global.json { throw ValidationError("--json needs -o FILE: standard output carries the image") }
        }
    }

    func run() async throws {
        do {
            try await deliver()
        } catch let error as NewFileError {
            Output.escapedError("photoctl: \(error.shown)")
            throw ExitCode.failure
        }
    }

    private func deliver() async throws {
        // An existing file is refused before photod does any work; the temporary file goes
        // away with `file` when anything below fails.
        let file = try output.map { path throws(NewFileError) in try NewFile.create(at: RawArguments.bytes(of: path), replacing: force) }
        let client = try await global.connect()
        let id = try await AssetArguments.ids(of: [photo], client: client)[0]
        let reply = try await client.requestImage(RequestImageParameters(
            id: id, width: size, height: size, contentMode: .fit, deliveryMode: fast ? .fast : .highQuality,
            format: try encoding()))
        await client.close()
        guard let image = Data(base64Encoded: reply.data) else {
            file?.discard()
            Output.error("photoctl: photod's image of \(id) is not valid base64")
            throw ExitCode.failure
        }
        let facts = ImageFacts(reply, bytes: image.count, file: file.map { $0.path.description })
        guard let file else {
            Output.bytes(image)
            Output.note(facts.summary)
            return
        }
        try file.write(image)
        try file.commit(replacing: force)
        if global.json {
            try Output.json(facts)
        } else {
            Output.people(SafeText.escaped(bytes: file.path.bytes) + ": " + SafeText.escaped(facts.summary) + "\n")
        }
    }
}

extension ThumbnailCommand {
    /// The encoding to ask for: --format, else what FILE's extension names, else JPEG. Always
    /// given, so the image does not change format with what photod happens to have cached.
    func encoding() throws -> ImageFormat {
        let named = output.flatMap { Self.format(ofExtensionIn: RawArguments.bytes(of: $0)) }
        switch (format, named) {
        case (let given?, .known(let implied)?) where given != implied:
            throw ValidationError("--format \(given.rawValue) does not match the file's extension (.\(implied.rawValue == "jpeg" ? "jpg" : "png"))")
        case (_, .unknown(let ext)?) where format == nil:
            throw ValidationError("photod makes JPEG and PNG images: name the file .jpg or .png (not .\(ext)), or give --format")
        case (let given?, _): return given
        case (nil, .known(let implied)?): return implied
        default: return .jpeg
        }
    }

    /// What a file name's extension says about its encoding.
    enum NamedFormat: Equatable {
        case known(ImageFormat)
        case unknown(String)
    }

    /// The encoding `path`'s extension names; nil for a name without one.
    static func format(ofExtensionIn path: [UInt8]) -> NamedFormat? {
        let name = path.split(separator: UInt8(ascii: "/")).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return nil }
        let ext = String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
        switch ext {
        case "jpg", "jpeg", "jpe", "jfif": return .known(.jpeg)
        case "png": return .known(.png)
        default: return .unknown(ext)
        }
    }
}

/// What `photoctl thumbnail` says about the image it wrote (RequestImage's reply without the data).
struct ImageFacts: Encodable {
    let format: ImageFormat
    let width: Int
    let height: Int
    let degraded: Bool
    let source: ImageSource
    let orientation: Int
    let bytes: Int
    let file: String?

    init(_ reply: RequestImageReply, bytes: Int, file: String?) {
        format = reply.format
        width = reply.width
        height = reply.height
        degraded = reply.degraded
        source = reply.source
        orientation = reply.orientation
        self.bytes = bytes
        self.file = file
    }

    /// "160×120 jpeg, 5120 bytes (embedded)" for people.
    var summary: String {
        "\(width)×\(height) \(format.rawValue), \(bytes) bytes (\(source.rawValue)\(degraded ? ", degraded" : ""))"
    }
}

extension ImageFormat: ExpressibleByArgument {}
