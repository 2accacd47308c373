import PhotoAPI
import SafeText

/// The words of every notification photod-notify shows.
///
/// An app's label, id and reason are hostile: each is escaped with `SafeText` (control and
/// format characters made visible, so no newline forges a line and no escape sequence acts;
/// the label, which the app chose, comes after the kernel's id, quoted and short, with every
/// blank-looking character shown, `SafeText.quoted`),
/// and when the server reads the body as markup, `& < > " '` become entities, so a label
/// `<b>x</b>` or `<a href=…>` is shown as typed, never rendered.
public enum NotificationText {
    /// The app name every notification carries.
    public static let appName = "photod"
    /// The summary of a request: fixed, never text from an app.
    public static let summary = "An app asks to see your photos"
    /// The summary of an add-only request.
    public static let addingSummary = "An app asks to add photos"

    /// A request of `app` at `level`; `confirming` asks again, with its warning, before allowing
    /// an interpreter or shell. `ownerUID` is the user photod-notify runs as (another user's app
    /// says whose it is).
    public static func request(_ app: App, level: AccessLevel = .readWrite, confirming: Bool, ownerUID: Int,
                               capabilities: ServerCapabilities) -> NotificationContent {
        let adding = level == .addOnly
        var lines: [String] = []
        let name = appName(app, ownerUID: ownerUID)
        let warning = app.warning.map { SafeText.escaped($0) }
        if confirming, let warning {
            lines.append("Really allow \(name)?")
            lines.append("Warning: \(warning).")
            lines.append("Allow only if you trust every program run this way.")
        } else {
            lines.append(adding ? "\(name) asks to add photos to your library (\(level.words): it sees none of them)."
                                : "\(name) asks to see your photo library.")
            let reason = adding ? app.addOnly?.reason : app.reason
            lines.append("Reason: " + (reason.map { SafeText.escaped($0) } ?? "(none given)"))
            if app.required?.contains(level) == true { lines.append("The app says it cannot work without this.") }
            if let warning { lines.append("Warning: \(warning).") }
        }
        var actions: [NotificationContent.Action] = []
        if capabilities.actions {
            let allow = confirming && warning != nil
                ? NotificationContent.Action(ActionKey.allowConfirmed, "Allow all of them")
                : NotificationContent.Action(ActionKey.allow, "Allow")
            actions = [allow, .init(ActionKey.deny, "Deny"), .init(ActionKey.choose, "Choose…")]
        } else {
            lines.append(commands(for: AppKey(app, level: level), ownerUID: ownerUID, warning: app.warning != nil))
        }
        return NotificationContent(summary: adding ? addingSummary : summary, body: body(lines, capabilities),
                                   actions: actions)
    }

    /// The summary of a change an app asked for: fixed, never text from an app.
    public static let changeSummary = "An app asks to change photos"

    /// A change `change.app` asked for: which app, how many photos, the new description
    /// (escaped, quoted, cut at `descriptionCharacters`), with Allow / Deny / Show….
    public static func change(_ change: ChangeRequest, ownerUID: Int, capabilities: ServerCapabilities)
        -> NotificationContent {
        let name = appName(change.app, ownerUID: ownerUID)
        let photos = change.ids.count == 1 ? "1 photo" : "\(change.ids.count) photos"
        let what = change.description.map {
            "to set the description of \(photos) to \(SafeText.quoted($0, maxCharacters: descriptionCharacters))"
        } ?? "to clear the description of \(photos)"
        var lines = ["\(name) asks \(what).", "The photos' files are changed; photod writes only the description."]
        var actions: [NotificationContent.Action] = []
        if capabilities.actions {
            actions = [.init(ActionKey.allow, "Allow"), .init(ActionKey.deny, "Deny"), .init(ActionKey.choose, "Show…")]
        } else {
            lines.append("Answer in a terminal: photoctl permissions prompt")
        }
        return NotificationContent(summary: changeSummary, body: body(lines, capabilities), actions: actions)
    }

    /// The summary of a pick an app asked for: fixed, never text from an app.
    public static let pickSummary = "An app asks you to choose photos"

    /// A pick `pick.app` asked for: which app, how many photos, why (all escaped; the label
    /// quoted), with Choose… (photoctl's picker in a terminal) and Cancel.
    public static func pick(_ pick: PickRequest, ownerUID: Int, capabilities: ServerCapabilities) -> NotificationContent {
        let name = appName(pick.app, ownerUID: ownerUID)
        let photos = pick.limit == 1 ? "a photo" : "up to \(pick.limit) photos"
        let what = pick.label.flatMap { $0.isEmpty ? nil : $0 }.map { " (\(SafeText.quoted($0)))" } ?? ""
        var lines = ["\(name) wants you to choose \(photos)\(what): \(SafeText.escaped(pick.reason, maxBytes: 600))",
                     "It gets the photos you choose and nothing else."]
        var actions: [NotificationContent.Action] = []
        if capabilities.actions {
            actions = [.init(ActionKey.choose, "Choose…"), .init(ActionKey.cancel, "Cancel")]
        } else {
            lines.append("Choose in a terminal: photoctl pick")
        }
        return NotificationContent(summary: pickSummary, body: body(lines, capabilities), actions: actions)
    }

    /// Most characters of a change's description a notification shows.
    public static let descriptionCharacters = 200

    /// The app as every notification names it: the kernel's id, escaped, whose app when not the
    /// owner's, then the label it chose, quoted and short.
    static func appName(_ app: App, ownerUID: Int) -> String {
        let who = app.uid == ownerUID ? "" : " of user \(app.uid)"
        return SafeText.escaped(app.id) + who
            + (app.label.flatMap { $0.isEmpty ? nil : $0 }.map { " (calls itself \(SafeText.quoted($0)))" } ?? "")
    }

    /// The summary of the requests beyond the ones shown.
    public static func overflow(count: Int, capabilities: ServerCapabilities) -> NotificationContent {
        let apps = count == 1 ? "1 more app is" : "\(count) more apps are"
        return NotificationContent(summary: "Apps ask to see your photos",
                                   body: body(["\(apps) waiting: photoctl permissions prompt"], capabilities))
    }

    /// A request's notification shown again after Choose… found no terminal to run it in: the
    /// same question and buttons, less Choose…, and the command to type in a terminal.
    public static func withoutTerminal(_ content: NotificationContent, command: String,
                                       capabilities: ServerCapabilities) -> NotificationContent {
        let line = "No terminal was found for Choose… (x-terminal-emulator is not on PATH). Run this in a terminal: "
            + command
        return NotificationContent(summary: content.summary,
                                   body: content.body + (capabilities.bodyMarkup ? "\n" + markupEscaped(line) : "\n" + line),
                                   actions: content.actions.filter { $0.key != ActionKey.choose },
                                   expireTimeout: content.expireTimeout)
    }

    /// The commands that answer a request, for a server without buttons. An id is quoted into
    /// a command only when it is safe to type as it stands; allowing an app with a warning goes
    /// through the prompt, which shows the warning.
    static func commands(for app: AppKey, ownerUID: Int, warning: Bool) -> String {
        let prompt = "Answer in a terminal: photoctl permissions prompt"
        guard PromptCommand.isSafe(app.id), !warning else { return prompt }
        let user = app.uid == ownerUID ? "" : " --uid \(app.uid)"
        let level = app.level == .addOnly ? " --level add" : ""
        return prompt + ", or photoctl permissions allow \(app.id)\(user)\(level) (or deny)"
    }

    /// Lines joined into a body, entity-escaped when the server reads markup.
    static func body(_ lines: [String], _ capabilities: ServerCapabilities) -> String {
        let text = lines.joined(separator: "\n")
        return capabilities.bodyMarkup ? markupEscaped(text) : text
    }

    /// `text` with the five XML special characters as entities.
    public static func markupEscaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
