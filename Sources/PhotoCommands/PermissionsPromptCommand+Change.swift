import PhotoAPI
import PhotoClient
import SafeText

/// The prompt's question for a change an app asked for (an app's SetDescription).
extension PermissionsPromptCommand {
    /// Most photos of a change listed by path; the rest are counted.
    static let listedPhotos = 10

    /// Asks whether the change may be written, showing the photos it touches; false when the
    /// terminal closed.
    func answer(change: ChangeRequest, using client: PhotoClient) async throws -> Bool {
        Output.line("")
        AppText.line("Allow ", change.app, " to \(ChangeText.what(change))?")
        let shown = Array(change.ids.prefix(Self.listedPhotos))
        let found = try await client.getAssets(ids: shown)
        for asset in found.assets {
            // The path loses its folders first, then the group its end, to fit the terminal.
            let path = Ellipsis.fit(Output.Cell.path(of: asset).shown, width: BoundedList.pathWidth, at: .path)
            let line = "  \(path)  (\(SafeText.escaped(asset.group)))"
            Output.fitted(escaped: line)
        }
        for id in found.missing { Output.line("  \(id)  (no longer in the library)") }
        if change.ids.count > shown.count { Output.line("  and \(change.ids.count - shown.count) more") }
        Output.paragraph("Only the description is written; the rest of each file stays as it is.")
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("[a]llow / [d]eny / [s]kip: ") else { return false }
            let allow: Bool
            switch reply.lowercased() {
            case "a", "allow": allow = true
            case "d", "deny": allow = false
            case "s", "skip", "":
                Output.paragraph("Skipped; the app keeps waiting until its change times out.")
                return true
            default:
                Output.paragraph("Answer a, d or s.")
                continue
            }
            do {
                let answered = try await client.answerChange(change.id, allow: allow)
                AppText.line("", answered.change.app, ": change \(ChangeText.ended(answered.answer))")
            } catch {
                guard error.isRefusal(named: AuthorizationInterface.Error.noSuchChange) else { throw error }
                Output.paragraph("That change is no longer waiting (answered elsewhere, timed out, or withdrawn).")
            }
            return true
        }
    }
}
