/// The notification server's side: answers to `Notify`, buttons pressed, notifications closed.
extension NotifierMachine {
    /// No server (or one that fails): nothing is shown until a new request looks again.
    mutating func serverGone(_ reason: String) -> [NotifierAction] {
        server = .missing
        // Whatever was on the desktop went with the server; a Notify still in flight is closed
        // if it is ever answered (its tag is forgotten here).
        for index in requests.indices { requests[index].notification = .none }
        overflow = .none
        // Once per outage: probing again at every request and failing is not news.
        guard !missingLogged else { return [] }
        missingLogged = true
        return [.note(.warning, "no desktop notification server answers on the session bus "
                     + "(org.freedesktop.Notifications): \(reason). Permission requests wait as without "
                     + "photod-notify; answer them with `photoctl permissions prompt`. Trying again at the next request")]
    }

    /// A server left the bus (its notifications went with it) or a new one took the name: look
    /// at the new one, and show it every waiting request another server had shown. (The news
    /// can come after the new server already answered: one we started by calling it.)
    mutating func serverChanged(owner: String) -> [NotifierAction] {
        guard !owner.isEmpty else { return serverGone("the notification server left the session bus") }
        for index in requests.indices where requests[index].notification.shown.map({ $0.server != owner }) ?? false {
            requests[index].notification = .none
        }
        if overflow.shown.map({ $0.server != owner }) ?? false { overflow = .none }
        server = .probing
        return [.probeServer]
    }

    /// The server showed a notification; one nobody wants any more is closed at once.
    mutating func notified(tag: UInt64, id: UInt32, server: String) -> [NotifierAction] {
        if let index = requests.firstIndex(where: { $0.notification.tag == tag }),
           case .sending(_, let content, let previous) = requests[index].notification {
            requests[index].notification = .shown(ShownNotification(id: id, server: server, content: content))
            return replaced(previous, by: id)
        }
        if overflow.tag == tag, case .sending(_, let content, let previous) = overflow {
            overflow = .shown(ShownNotification(id: id, server: server, content: content))
            return replaced(previous, by: id)
        }
        return [.close(id: id)]
    }

    /// A replacement came back under a new id: the notification it was to replace goes.
    private func replaced(_ previous: ShownNotification?, by id: UInt32) -> [NotifierAction] {
        guard let previous, previous.id != id else { return [] }
        return [.close(id: previous.id)]
    }

    /// A button was pressed: believed only from the server that showed that notification, and
    /// only for a button that notification offers.
    mutating func invoked(id: UInt32, key action: String, sender: String) -> [NotifierAction] {
        guard let index = requests.firstIndex(where: { $0.notification(withID: id) != nil }),
              let notification = requests[index].notification(withID: id) else {
            return [.note(.debug, "ignored an action on a notification that asks nothing", ["notification": "\(id)"])]
        }
        let request = requests[index]
        let about: [String: String] = ["app": request.app.id, "uid": "\(request.app.uid)", "action": action,
                                       "notification": "\(id)", "sender": sender]
        guard notification.server == sender else {
            return [.note(.warning, "ignored an action that the notification server did not send; another program "
                         + "on the session bus may be trying to answer for the owner",
                         about.merging(["server": notification.server]) { $1 })]
        }
        guard notification.content.actions.contains(where: { $0.key == action }) else {
            return [.note(.warning, "ignored an action the notification does not offer", about)]
        }
        if request.pick != nil {
            // The owner chooses the photos in photoctl's picker; the notification only opens it.
            switch action {
            case ActionKey.cancel: return [.cancelPick(request.key)]
            default: return [.openPrompt(request.key)]
            }
        }
        if request.change != nil {
            // A change is allowed or denied as it stands: the app's access was decided before.
            switch action {
            case ActionKey.allow: return [.answerChange(request.key, allow: true)]
            case ActionKey.deny: return [.answerChange(request.key, allow: false)]
            default: return [.openPrompt(request.key)]
            }
        }
        switch action {
        case ActionKey.allow where request.app.warning != nil:
            requests[index].confirming = true
            requests[index].dismissed = false
            return [.note(.notice, "the owner pressed Allow for an app with a warning; asking again", about)]
        case ActionKey.allow:
            return [.decide(request.key, status: .authorized, confirmed: false)]
        case ActionKey.allowConfirmed:
            return [.decide(request.key, status: .authorized, confirmed: true)]
        case ActionKey.deny:
            return [.decide(request.key, status: .denied, confirmed: false)]
        default:
            return [.openPrompt(request.key)]
        }
    }

    /// The server closed a notification (the owner dismissed it, or a button closed it): the
    /// request keeps waiting without one, and its place goes to the next request.
    mutating func closed(id: UInt32, sender: String) -> [NotifierAction] {
        if let index = requests.firstIndex(where: { $0.notification.shown?.id == id }),
           let shown = requests[index].notification.shown {
            guard shown.server == sender else {
                return [.note(.warning, "ignored NotificationClosed that the notification server did not send",
                             ["notification": "\(id)", "sender": sender, "server": shown.server])]
            }
            requests[index].notification = .none
            requests[index].dismissed = true
            requests[index].lastClosed = shown
            return [.note(.info, "notification closed on the desktop; the request still waits",
                         ["app": requests[index].app.id, "uid": "\(requests[index].app.uid)"])]
        }
        if let shown = overflow.shown, shown.id == id, shown.server == sender {
            overflow = .none
            overflowDismissedAt = waitingCount
        }
        // Anything else is a notification already forgotten, or one being replaced right now.
        return []
    }

    /// Choose… found no terminal: the request is shown again, with the command to run instead.
    /// As a new notification, not a replacement: the server may still be closing the one whose
    /// button was pressed, and that close must not dismiss the request.
    mutating func promptUnavailable(_ key: AppKey, command: String) -> [NotifierAction] {
        let log = NotifierLog(.warning, "no terminal to answer in: x-terminal-emulator is not on PATH",
                              ["app": key.id, "uid": "\(key.uid)", "command": command])
        guard let index = requests.firstIndex(where: { $0.key == key }) else { return [.log(log)] }
        requests[index].withoutTerminal = command
        requests[index].dismissed = false
        guard let shown = requests[index].notification.shown else { return [.log(log)] }
        requests[index].notification = .none
        requests[index].lastClosed = shown
        return [.log(log), .close(id: shown.id)]
    }
}
