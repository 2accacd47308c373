// swift-tools-version: 6.0
// photod: a Linux photo-library daemon (photod) and its client (photoctl).
// Module layout and dependency direction follow DESIGN.md "Modules": the client side
// (photoctl, PhotoCommands, PhotoClient) never links libexif, libsqlite3 or the watcher, nor
// SwiftNIO or full Foundation (FoundationEssentials only), so photoctl starts like a small C program.
import PackageDescription

/// This manifest's folder, for a linker flag that names a file of the package (a flag's path
/// is not taken relative to the package).
let packageFolder = String(#filePath.dropLast("/Package.swift".count))

/// swift-system's SystemPackage, for `Errno`: errno in words, the one place strerror is called.
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "photod",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photod", targets: ["photod"]),
        .executable(name: "photoctl", targets: ["photoctl"]),
        .executable(name: "photod-thumbnailer", targets: ["photod-thumbnailer"]),
        .executable(name: "photod-notify", targets: ["photod-notify"]),
        .library(name: "PhotoClient", targets: ["PhotoClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Errno (strerror's text); already in the graph through swift-nio, and free of Foundation.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // C libraries, each imported by exactly one small Swift module.
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Only photod-thumbnailer links these two: image decoding stays out of photod's process.
        // pkgConfig names gobject-2.0, not vips: vips.pc pulls in -pthread (refused by SwiftPM, with a
        // warning) through its private requirements; the headers need only GLib's, and the module map links vips.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // No pkgConfig: libutf8proc.pc adds -DUTF8PROC_EXPORTS (a Windows export switch), a flag
        // SwiftPM refuses with a warning; the header is in /usr/include and the module map links it.
        .systemLibrary(name: "CUtf8proc", providers: [.apt(["libutf8proc-dev"])]),
        // glibc's mallopt and malloc_trim (no library to link): photod bounds its arenas and
        // hands freed memory back after a reconcile.
        .systemLibrary(name: "CMalloc"),
        // dl_iterate_phdr and madvise: a long-lived process unmaps code it ran once (Posix's CodePages).
        .systemLibrary(name: "CLoadedCode"),
        // glibc's posix_spawn extensions (closefrom, chdir) that spawn.h keeps behind _GNU_SOURCE.
        .systemLibrary(name: "CSpawn"),
        // getrandom(2), which Swift's Glibc module leaves out (sys/random.h).
        .systemLibrary(name: "CRandom"),
        // memfd_create, copy_file_range, pipe2, sendfile and the f*xattr calls, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CFileCopy"),
        // epoll and accept4, which Swift's Glibc module leaves out: the varlink server's relay thread.
        .systemLibrary(name: "CLinuxIO"),

        // A strict JSON reader the generated wire types read themselves with (JSONReadable): a
        // client decodes a reply in one pass over its bytes, not through JSONDecoder. Stdlib only.
        .target(name: "WireJSON"),
        // Wire types and the varlink interface text (the single source of truth): Generated/ is
        // varlink-codegen's output from interface/*.varlink, checked in (CodegenTests fails when stale).
        .target(
            name: "PhotoAPI",
            dependencies: ["WireJSON"],
            exclude: ["interface/SwiftNames.txt"],
            resources: [
                .embedInCode("interface/io.photod.Library.varlink"),
                .embedInCode("interface/io.photod.Authorization.varlink"),
            ]
        ),
        // Varlink without SwiftNIO: framing, the JSON wire, errors, the trust checks and the
        // blocking client; all a client needs, so photoctl links no event loop.
        .target(name: "VarlinkCore", dependencies: ["Posix", "WireJSON", systemPackage]),
        // The generator of PhotoAPI/Generated: Codable types and byte limits from varlink IDL,
        // read with VarlinkCore's one IDL reader; a library so CodegenTests can run it in memory.
        .target(name: "VarlinkCodegen", dependencies: ["VarlinkCore"]),
        .executableTarget(name: "varlink-codegen", dependencies: ["VarlinkCodegen"]),
        // Log lines capped per window, with a count of those held back: photod's server and
        // photod-notify share it, and photod-notify links no SwiftNIO for it.
        .target(name: "LogLines", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // The NIO server; re-exports VarlinkCore (whose VarlinkClient is the one client, NIO-free).
        .target(name: "Varlink", dependencies: [
            "VarlinkCore", "WireJSON", "LogLines", "Posix", systemPackage,
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // MD5, one implementation for the thumbnail cache's file names and the IPTC digest Photoshop keeps.
        .target(name: "Checksums"),
        .target(name: "ZlibInflate", dependencies: ["CZlib"]),
        .target(name: "Metadata", dependencies: ["CExif", "ZlibInflate", "Checksums"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "FileSystem", dependencies: ["Posix", systemPackage]),
        // Escaping of untrusted text before a terminal or a log line sees it; used by both sides.
        .target(name: "SafeText"),
        // Search's folding of case and accents, through utf8proc: the only code that touches it.
        .target(name: "TextFolding", dependencies: ["CUtf8proc"]),
        .target(name: "Watcher", dependencies: ["FileSystem", "Posix"]),
        // The freedesktop.org thumbnail cache (~/.cache/thumbnails); Glibc and zlib's CRC-32, no Foundation.
        .target(name: "ThumbnailCache", dependencies: ["CZlib", "Checksums", "FileSystem", systemPackage]),
        // The TOML subset photod.toml uses, parsed strictly; stdlib only, so photod links no
        // Foundation (and no C++ library) for its config.
        .target(name: "TOML", dependencies: ["SafeText"]),
        // posix_spawn, pthreads, getrandom, file identities, peer credentials and users without Foundation or
        // SwiftNIO (photoctl links it through VarlinkCore): photod's thumbnail workers, photod-notify's terminal
        // and bus thread, the store's asset ids, the varlink socket file; and SystemCallError, errno in words.
        .target(name: "Posix", dependencies: ["CSpawn", "CRandom", "CFileCopy", "CLinuxIO", "CLoadedCode", systemPackage]),
        // The index; owns its threads (NIOThreadPool), so no caller waits on SQLite.
        .target(name: "Store", dependencies: [
            "SQLite", "FileSystem", "Posix", "TextFolding", systemPackage, .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // sd_notify, socket activation and the journal: the only code that touches libsystemd.
        .target(name: "Systemd", dependencies: [
            "CSystemd", "SafeText",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The daemon: one ServiceGroup (Daemon.swift) of varlink, watcher, indexer, reload and
        // systemd services. Every index change goes through the indexer's one command loop; the
        // method table (PhotoAPI/Methods.swift) is checked against the IDL at start.
        .target(name: "PhotoDaemon", dependencies: [
            "PhotoAPI", "Varlink", "Metadata", "Store", "FileSystem", "Watcher", "Systemd", "SafeText",
            "ThumbnailCache", "ThumbnailProtocol", "TOML", "TextFolding", "CMalloc", "Posix", "LogLines",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            systemPackage,
        ]),
        .target(name: "PhotoClient", dependencies: ["PhotoAPI", "VarlinkCore", "Posix"]),
        // The session bus through sd-bus, as a client of the desktop's notification server: the
        // only code of photod-notify that touches libsystemd's bus or an unsafe pointer.
        .target(name: "SessionBus", dependencies: ["CSystemd", "Posix", systemPackage]),
        // photod-notify's logic: a state machine (events in, actions out, tested without D-Bus),
        // the notification text, and the runtime joining photod's Watch to the session bus.
        .target(name: "PhotoNotify", dependencies: [
            "PhotoAPI", "PhotoClient", "LogLines", "SessionBus", "SafeText", "Posix", "FileSystem",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // The photod <-> photod-thumbnailer frames and the SCM_RIGHTS helpers; Glibc only, so both sides can link it.
        .target(name: "ThumbnailProtocol", dependencies: ["Posix"]),
        // The worker's logic (sandbox, libvips, request loop), a library so tests can reach it.
        .target(name: "Thumbnailer", dependencies: ["ThumbnailProtocol", "Posix", "CVips", "CSeccomp", systemPackage]),
        .target(name: "PhotoCommands", dependencies: [
            "PhotoAPI", "PhotoClient", "SafeText", "Posix", "FileSystem", "ZlibInflate", systemPackage,
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "photod", dependencies: [
            "PhotoDaemon",
            "PhotoAPI",
            "Systemd",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // A release photoctl carries the Swift runtime (a dynamic one costs each start loading and
        // binding a dozen libraries), folds identical functions and exports no symbols: it starts
        // like a small C program and stays small (issue 16). The two archives are what the dynamic
        // FoundationEssentials keeps inside its .so. Debug builds, which the tests run, stay dynamic.
        //
        // The static Swift runtime still needs the C++ library, and swiftc names it (-lstdc++) before
        // any flag a package can add, so it came dynamically: binding libstdc++.so was a quarter of
        // `photoctl groups`' instructions. The linker looks in StaticCXX first, where libstdc++.so is
        // a linker script naming GCC's libstdc++.a.
        //
        // Linked by lld, with relative relocations packed (DT_RELR, glibc 2.36: bookworm): gold
        // wrote 45,000 of them at 24 bytes each, a megabyte of the binary, each applied at start.
        //
        // No unwind tables (UnwindTables/discard-eh-frame.ld): .eh_frame and its index were 2.3 MB of
        // 16.8, read by nothing photoctl does (Swift's errors are return values; see the script).
        .executableTarget(
            name: "photoctl", dependencies: ["PhotoCommands"], exclude: ["StaticCXX", "UnwindTables"],
            linkerSettings: [
                .unsafeFlags(["-static-stdlib", "-l_FoundationCShims", "-l_FoundationCollections",
                              "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "--icf=safe", "-Xlinker", "--no-export-dynamic",
                              "-L" + packageFolder + "/Sources/photoctl/StaticCXX",
                              "-Xlinker", packageFolder + "/Sources/photoctl/UnwindTables/discard-eh-frame.ld"],
                             .when(platforms: [.linux], configuration: .release)),
            ]
        ),
        // Desktop alerts for permission requests: an owner client of photod, installed in /usr/libexec/photod.
        .executableTarget(name: "photod-notify", dependencies: [
            "PhotoNotify", "PhotoAPI", "Systemd",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The one executable that links libvips: photod sends it an open file, it answers with a thumbnail.
        .executableTarget(name: "photod-thumbnailer", dependencies: ["Thumbnailer"]),
        // The reference varlink certification (server and client) on the Varlink module; CertificationTests runs it against Python's.
        .executableTarget(name: "varlink-certification", dependencies: [
            "Varlink", .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/VarlinkCertification", resources: [.embedInCode("org.varlink.certification.varlink")]),

        // Test fixtures made by code (JPEGs with EXIF), so a fresh clone needs no shared corpus.
        .target(name: "PhotoTestSupport", dependencies: ["PhotoClient", "PhotoAPI", "Posix"], path: "Tests/PhotoTestSupport"),
        .testTarget(name: "MetadataTests", dependencies: ["Metadata", "Checksums", "PhotoTestSupport"]),
        .testTarget(name: "VarlinkTests", dependencies: [
            "Varlink", "VarlinkCore", "WireJSON", "Posix", "LogLines", "varlink-certification", "PhotoTestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The checked-in generated types match what varlink-codegen makes of the IDL now.
        .testTarget(name: "CodegenTests", dependencies: ["VarlinkCodegen", "VarlinkCore"]),
        // The JSON reader and the generated readers, each against JSONDecoder on the same bytes.
        .testTarget(name: "WireJSONTests", dependencies: ["WireJSON", "PhotoAPI"]),
        .testTarget(name: "SafeTextTests", dependencies: ["SafeText"]),
        .testTarget(name: "TextFoldingTests", dependencies: ["TextFolding"]),
        .testTarget(name: "PosixTests", dependencies: ["Posix", "PhotoTestSupport"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML", "PhotoTestSupport"]),
        // photoctl's pure parts: did-you-mean, shell words for completion, paths.
        .testTarget(name: "PhotoCommandsTests", dependencies: ["PhotoCommands", "PhotoAPI", "PhotoClient", "SafeText",
                                                               "PhotoTestSupport",
                                                               .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "PhotoNotifyTests", dependencies: ["PhotoNotify", "PhotoAPI",
                                                             .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ThumbnailProtocolTests", dependencies: ["ThumbnailProtocol"]),
        // The built photod-thumbnailer over a socketpair, on images Pillow makes.
        .testTarget(name: "ThumbnailerTests", dependencies: ["photod-thumbnailer", "Thumbnailer", "ThumbnailProtocol", "PhotoTestSupport", "Posix"]),
        .testTarget(name: "WatcherTests", dependencies: ["Watcher", "PhotoTestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "TextFolding", "PhotoTestSupport"]),
        .testTarget(name: "ThumbnailCacheTests", dependencies: ["ThumbnailCache", "Checksums", "FileSystem", "PhotoTestSupport"]),
        .testTarget(name: "SystemdTests", dependencies: ["Systemd", .product(name: "Logging", package: "swift-log")]),
        // Unit tests, plus the in-process harness (Harness/TestDaemon.swift: the whole service
        // group over a temporary library, index and socket, callers named by the test), and the
        // same bodies against the real photod (Harness/PhotodTarget.swift).
        .testTarget(name: "PhotoDaemonTests", dependencies: ["PhotoDaemon", "photod", "PhotoAPI", "Metadata", "LogLines", "PhotoTestSupport"]),
        // The real photod and photoctl binaries, driven through photoctl, Python and raw sockets.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["photod", "photoctl", "photod-notify", "PhotoClient", "PhotoTestSupport", "Posix"]
        ),
        .testTarget(name: "ConformanceTests", dependencies: ["photod", "PhotoClient", "Metadata", "PhotoTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
