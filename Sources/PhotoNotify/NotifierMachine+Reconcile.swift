/// What should be on the desktop, compared with what is, after every event.
extension NotifierMachine {
    /// Requests waiting for a place: not shown, not being sent, not closed by the owner, not held back.
    var waitingCount: Int {
        requests.filter { $0.notification == .none && !$0.dismissed && $0.heldBy == nil }.count
    }

    /// Shows waiting requests while fewer than `limit` are on the desktop, updates any whose
    /// text changed (a confirmation, a new reason, the server's capabilities), and keeps the
    /// summary of the rest current; nothing while no server is known to be there.
    mutating func reconcile() -> [NotifierAction] {
        guard case .available(let capabilities) = server else { return [] }
        var actions: [NotifierAction] = []
        var onDesktop = requests.filter { $0.notification != .none }.count
        for index in requests.indices {
            let request = requests[index]
            var wanted = request.change.map {
                NotificationText.change($0, ownerUID: ownerUID, capabilities: capabilities)
            } ?? request.pick.map {
                NotificationText.pick($0, ownerUID: ownerUID, capabilities: capabilities)
            } ?? NotificationText.request(request.app, level: request.level, confirming: request.confirming,
                                          ownerUID: ownerUID, capabilities: capabilities)
            if let command = request.withoutTerminal {
                wanted = NotificationText.withoutTerminal(wanted, command: command, capabilities: capabilities)
            }
            switch request.notification {
            case .shown(let shown) where shown.content != wanted:
                let (state, action) = Self.sending(wanted, replacing: shown, tag: takeTag())
                requests[index].notification = state
                actions.append(action)
            case .none where !request.dismissed && request.heldBy == nil && onDesktop < limit:
                let (state, action) = Self.sending(wanted, replacing: nil, tag: takeTag())
                requests[index].notification = state
                actions.append(action)
                onDesktop += 1
            default:
                break
            }
        }
        return actions + reconcileOverflow(capabilities)
    }

    /// The summary: shown while requests wait beyond `limit`, updated with their count, closed at none.
    private mutating func reconcileOverflow(_ capabilities: ServerCapabilities) -> [NotifierAction] {
        let waiting = waitingCount
        guard waiting > 0 else {
            overflowDismissedAt = nil
            guard let shown = overflow.shown else { return [] }
            overflow = .none
            return [.close(id: shown.id)]
        }
        let wanted = NotificationText.overflow(count: waiting, capabilities: capabilities)
        let previous: ShownNotification?
        switch overflow {
        case .shown(let shown) where shown.content != wanted:
            previous = shown
        case .none where overflowDismissedAt != waiting:
            previous = nil
        default:
            return []
        }
        overflowDismissedAt = nil
        let (state, action) = Self.sending(wanted, replacing: previous, tag: takeTag())
        overflow = state
        return [action]
    }

    /// A `Notify` of `content` (in place of `previous`) with `tag`, and the state that records it in flight.
    private static func sending(_ content: NotificationContent, replacing previous: ShownNotification?,
                                tag: UInt64) -> (NotificationState, NotifierAction) {
        (.sending(tag: tag, content: content, previous: previous),
         .notify(tag: tag, replacing: previous?.id ?? 0, content: content))
    }
}
