import PhotoAPI
import PhotoClient

/// The prompt's question for an app waiting for the owner to choose photos (its Pick).
extension PermissionsPromptCommand {
    /// Says what the app wants and opens the picker, cancels the pick, or skips it; false when
    /// the terminal closed.
    func answer(pick: PickRequest, using client: PhotoClient) async throws -> Bool {
        Output.line("")
        let photos = pick.limit == 1 ? "a photo" : "up to \(pick.limit) photos"
        AppText.line("", pick.app, " wants you to choose \(photos)\(pick.label.map { " (\"\($0)\")" } ?? ""): \(pick.reason)")
        Output.paragraph("It gets only the photos you choose.")
        Terminal.discardTypedAhead()
        while true {
            guard let reply = await Terminal.ask("[c]hoose / [x] cancel it / [s]kip: ") else { return false }
            switch reply.lowercased() {
            case "c", "choose":
                try await PickCommand.choose(pick, answeringWith: client, global: global)
                return true
            case "x", "cancel":
                let answered = try await client.answerPick(pick.id, ids: nil, cancel: true)
                AppText.line("", answered.pick.app, ": pick cancelled")
                return true
            case "s", "skip", "":
                Output.paragraph("Skipped; the app keeps waiting until its pick times out (photoctl pick answers it).")
                return true
            default:
                Output.paragraph("Answer c, x or s.")
            }
        }
    }
}
