import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PhotoAPI
import PhotoClient

/// `photoctl permissions show APP`: one app's record in full, with what its selection holds now.
struct PermissionsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one app: status, reason, label, selection with counts, and when and by what it was decided.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var target: AppArgument

    func run() async throws {
        let client = try await global.connect()
        let app = try await client.app(target.app, uid: target.uid)
        // The selection as the library has it now: a group's size, an asset's file.
        let groups = app.groups.isEmpty && app.fallback != true ? [] : try await client.groups()
        let assets = app.assets.isEmpty ? nil : try await client.getAssets(ids: app.assets)
        await client.close()
        if global.json { return try Output.json(AppReply(app: app)) }
        var fields: [(String, Output.Cell)] = [("app", .text(app.id))]
        func add(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { fields.append((name, .text(value))) }
        }
        add("label", app.label.map { "\"\($0)\" (declared by the app)" })
        if app.uid != Int(getuid()) { add("user", "uid \(app.uid)") }
        add("status", app.status.rawValue + (app.status == .restricted ? " (photod.toml [permissions] restricted)" : ""))
        add("pending", app.pending ? "yes: waiting for an answer" : "no")
        add("reason", app.reason)
        add("asked", app.requestedAt)
        add("decided", app.decidedAt.map { at in app.decidedBy.map { "\(at) by \($0)" } ?? at })
        if let adding = app.addOnly, adding.status != .notDetermined || adding.pending || adding.requestedAt != nil {
            add("add only", adding.status.rawValue + (adding.pending ? " (waiting for an answer)" : ""))
            add("add reason", adding.reason)
            add("add asked", adding.requestedAt)
            add("add decided", adding.decidedAt.map { at in adding.decidedBy.map { "\(at) by \($0)" } ?? at })
        }
        // A name is the group of that description; the fallback group is the flag.
        let counts = Dictionary(groups.filter { !$0.fallback }.map { ($0.name, $0.count) },
                                uniquingKeysWith: { first, _ in first })
        func photos(_ count: Int) -> String { "\(count) photo\(count == 1 ? "" : "s")" }
        for name in app.groups {
            add("group", counts[name].map { "\(name) (\(photos($0)))" } ?? "\(name) (not in the library now)")
        }
        if app.fallback == true {
            let fallback = groups.first(where: \.fallback)
            add("group", fallback.map { "\(GroupLabel.text($0)) (\(photos($0.count)))" }
                ?? "the photos without a description (none in the library now)")
        }
        for asset in assets?.assets ?? [] {
            // The id, then the file's exact bytes (a path need not be UTF-8).
            let path: [UInt8] = if case .bytes(let bytes) = Output.Cell.path(of: asset) { bytes } else { Array(asset.path.utf8) }
            fields.append(("asset", .bytes(Array("\(asset.id)  ".utf8) + path)))
        }
        for id in assets?.missing ?? [] { add("asset", "\(id) (not in the library now)") }
        // Picked photos are the owner's picks, apart from the selection: readable by id only.
        if let picked = app.picked, picked > 0 { add("picked", photos(picked)) }
        add("warning", app.warning)
        Output.table(["FIELD", "VALUE"], fields.map { [.text($0.0), $0.1] })
    }
}
