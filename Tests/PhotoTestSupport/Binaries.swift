import Foundation

/// Locates the built `photod` and `photoctl` next to the running test bundle.
public enum Binaries {
    /// The folder holding the build's products (where the test binary itself lives).
    public static var productsFolder: URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe)
        // On Linux the tests run inside NAME.xctest; on other layouts the binary sits in the products folder.
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("photod").path) { return url }
        }
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }

    /// The `photod` executable.
    public static var photod: String { productsFolder.appendingPathComponent("photod").path }
    /// The `photoctl` executable.
    public static var photoctl: String { productsFolder.appendingPathComponent("photoctl").path }

    /// The repository's top folder, found from this source file.
    public static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
}
