import PhotoTestSupport

/// photod started on a config file and nothing else, as a person finds out what it refuses.
enum ConfigRefusal {
    /// Writes `text` as `name` in `dir` and runs photod on it; the file's path and how photod ended.
    static func run(_ text: String, in dir: TemporaryDirectory,
                    named name: String = "photod.toml") async throws -> (config: String, result: ProcessResult) {
        let config = try dir.write(name, Array(text.utf8))
        return (config, try await ProcessRunner.run(Binaries.photod, ["--config", config, "--socket", dir.file("s")]))
    }
}
