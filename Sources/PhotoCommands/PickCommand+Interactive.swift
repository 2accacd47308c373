#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import PhotoAPI
import PhotoClient

/// `photoctl pick` in a terminal: the picker for each waiting pick, and its answer to photod.
extension PickCommand {
    /// Whether both ends are a terminal: the picker needs a person in front of it.
    static var inTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Opens the picker for each of `picks` in turn, oldest first, and answers each: the photos
    /// marked, or a cancel when the owner left the picker without confirming.
    func chooseInteractively(_ picks: [PickRequest], using client: PhotoClient) async throws {
        for pick in picks { try await Self.choose(pick, answeringWith: client, global: global) }
    }

    /// The picker for one pick, then its answer through `client`. The picker browses on a
    /// connection of its own: leaving it may cancel a call in flight (a thumbnail), which ends
    /// that connection, and the answer must still go out.
    static func choose(_ pick: PickRequest, answeringWith client: PhotoClient, global: GlobalOptions) async throws {
        let browsing = try await global.connect()
        let chosen: [String]?
        do {
            chosen = try await InteractivePicker.choose(for: pick, client: browsing)
            await browsing.close()
        } catch let error as PickerError {
            await browsing.close()
            Output.error("photoctl: \(error.description); answer with photoctl pick --app APP ID|PATH… instead")
            throw ExitCode.failure
        } catch {
            await browsing.close()
            throw error
        }
        do {
            let reply = try await client.answerPick(pick.id, ids: chosen, cancel: chosen == nil)
            let count = reply.ids.count
            AppText.line("", reply.pick.app, reply.answer == .allowed
                         ? ": picked \(count) photo\(count == 1 ? "" : "s")" : ": pick cancelled")
        } catch {
            guard error.isRefusal(named: AuthorizationInterface.Error.noSuchPick) else { throw error }
            AppText.line("", pick.app, ": its pick is no longer waiting (it ended while you chose)")
        }
    }
}
