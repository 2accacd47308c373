import PhotoAPI
import PhotoClient

/// photoctl's picker: the owner browses groups, searches, marks photos up to a pick's limit and
/// confirms, on the controlling terminal. It answers nothing itself: `photoctl pick` passes
/// the ids it returns to AnswerPick.
enum InteractivePicker {
    /// How long the terminal has to answer the picture-protocol query.
    static let detectionTimeout = Duration.milliseconds(200)
    /// The side of the box thumbnails are asked for in, in pixels.
    static let thumbnailSide = 256

    /// Runs the picker for `pick` on the controlling terminal: the chosen ids in the order
    /// marked, or nil when the owner cancelled (q, Esc, Ctrl-C, Ctrl-D).
    static func choose(for pick: PickRequest, client: PhotoClient) async throws -> [String]? {
        guard let terminal = TTYTerminal.controlling() else {
            throw PickerError.terminal("photoctl has no controlling terminal")
        }
        return try await run(pick, terminal: terminal, source: ClientPickerSource(client: client))
    }

    /// The picker on any terminal and data source (tests pass scripted ones).
    static func run(_ pick: PickRequest, terminal: some PickerTerminal, source: some PickerDataSource,
                    detectionTimeout: Duration = detectionTimeout) async throws -> [String]? {
        // Whatever happens below (an error, a cancelled task), the terminal is put back and closed.
        defer { terminal.end() }
        try terminal.begin()
        let (events, sink) = AsyncStream.makeStream(of: PickerEvent.self)
        let requests = PickerFetchQueue()
        let wanted = WantedPicture()
        let worker = Task { await serve(requests, source: source, wanted: wanted, into: sink) }
        let timer = Task {
            try? await Task.sleep(for: detectionTimeout)
            sink.yield(.detectionTimedOut)
        }
        defer {
            worker.cancel()
            timer.cancel()
            requests.close()
        }
        terminal.startReading { bytes in sink.yield(.input(bytes)) }
        terminal.write(ProtocolDetector.query)
        var session = PickerSession(pick: pick, terminal: terminal, requests: requests, wanted: wanted)
        for await event in events {
            switch session.handle(event) {
            case .chosen(let ids): return ids
            case .cancelled: return nil
            case nil: continue
            }
        }
        return nil
    }

    /// The data worker: one call at a time (a PhotoClient takes one at a time), each answer an event.
    private static func serve(_ requests: PickerFetchQueue, source: some PickerDataSource,
                              wanted: WantedPicture, into sink: AsyncStream<PickerEvent>.Continuation) async {
        while let request = await requests.next() {
            switch request {
            case .groups:
                do {
                    sink.yield(.groups(try await source.groups()))
                } catch {
                    sink.yield(.failed("Cannot list the groups: \(error)", nil))
                }
            case .page(let photoSource, let cursor, let limit):
                do {
                    let page = try await source.page(of: photoSource, after: cursor, limit: limit)
                    sink.yield(.page(photoSource, assets: page.assets, next: page.next))
                } catch {
                    sink.yield(.failed("Cannot list the photos: \(error)", photoSource))
                }
            case .thumbnail(let id):
                // The owner moved on while it waited: the photo on screen now comes first.
                guard wanted.id.withLock({ $0 }) == id else {
                    sink.yield(.thumbnail(id: id, nil, skipped: true))
                    continue
                }
                let reply = try? await source.thumbnail(of: id, side: thumbnailSide)
                sink.yield(.thumbnail(id: id, reply, skipped: false))
            }
        }
    }
}
