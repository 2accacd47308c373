import PhotoAPI

/// The owner's calls about picks (`io.photod.Library.Pick`): the waiting ones, and answering them.
extension PhotoClient {
    /// Owner only: the apps waiting for the owner to choose photos, oldest first.
    public func listPicks() async throws(PhotoClientError) -> [PickRequest] {
        try await call(AuthorizationMethods.listPicks, NoParameters()).picks
    }

    /// Owner only: answers the waiting pick `id` with `ids` (in order), or cancels it.
    public func answerPick(_ id: String, ids: [String]?, cancel: Bool = false) async throws(PhotoClientError)
        -> AnswerPickReply {
        try await call(AuthorizationMethods.answerPick, AnswerPickParameters(id: id, ids: ids, cancel: cancel ? true : nil))
    }
}
