import PhotoAPI

/// A change an app asked for, in words, for the prompt and `permissions watch`.
enum ChangeText {
    /// "set the description of 3 photos to "Beach"" or "clear the description of 1 photo"; the
    /// app's text is quoted, and escaped where it is printed.
    static func what(_ change: ChangeRequest) -> String {
        let photos = change.ids.count == 1 ? "1 photo" : "\(change.ids.count) photos"
        guard let description = change.description else { return "clear the description of \(photos)" }
        return "set the description of \(photos) to \"\(description)\""
    }

    /// How a change ended, in words.
    static func ended(_ answer: ChangeAnswer?) -> String {
        switch answer {
        case .allowed: "allowed"
        case .denied: "denied"
        case .expired: "not answered in time"
        case .withdrawn: "withdrawn: the app hung up"
        case .revoked: "ended: the app lost its access"
        case nil: "ended"
        }
    }
}
