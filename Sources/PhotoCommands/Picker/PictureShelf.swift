#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoAPI

/// The thumbnails the picker has: for the kitty protocol each is fetched once, sent to the
/// terminal once under an image id, and placed by that id whenever its photo is the current one
/// again; for sixel each is decoded once and its sixel text kept (the last few), drawn again
/// with every screen, since a sixel picture has no id to place it by.
struct PictureShelf: Sendable {
    /// Most sixel pictures kept at once (each some tens of KiB).
    static let sixelsKept = 16
    /// Sixel text of the photos drawn lately, oldest first.
    private var sixels: [(id: String, text: String)] = []
    /// PNGs fetched and not yet sent; sent ones live in the terminal, not here.
    private(set) var received: [String: RequestImageReply] = [:]
    /// The kitty image id of each photo sent, and the cells it takes.
    private(set) var sent: [String: (id: Int, columns: Int, rows: Int)] = [:]
    /// Photos asked for and not yet answered.
    private(set) var requested: Set<String> = []
    /// Photos without a thumbnail to show (the daemon failed, or sent no PNG).
    private(set) var unavailable: Set<String> = []
    private var nextID = 1

    /// What draws the picture at `placement`, and whether its thumbnail must be asked for first.
    mutating func draw(_ placement: PicturePlacement, as picture: PictureProtocol = .kitty) -> (text: String, request: Bool) {
        let id = placement.assetID
        let position = ScreenText.moveTo(row: placement.row, column: placement.column)
        if picture == .sixel { return drawSixel(placement, at: position) }
        if let image = sent[id] {
            return (position + KittyGraphics.place(id: image.id, columns: image.columns, rows: image.rows), false)
        }
        if let png = received.removeValue(forKey: id) {
            let (columns, rows) = Self.cells(width: png.width, height: png.height, within: placement)
            sent[id] = (nextID, columns, rows)
            nextID += 1
            let text = KittyGraphics.transmit(png: png.data, id: nextID - 1, columns: columns, rows: rows)
            return (position + text, false)
        }
        guard !unavailable.contains(id), !requested.contains(id) else { return ("", false) }
        requested.insert(id)
        return ("", true)
    }

    /// The sixel text for `placement`'s photo, decoded from its PNG the first time.
    private mutating func drawSixel(_ placement: PicturePlacement, at position: String) -> (text: String, request: Bool) {
        let id = placement.assetID
        if let kept = sixels.first(where: { $0.id == id }) { return (position + kept.text, false) }
        if let reply = received.removeValue(forKey: id) {
            guard let png = Data(base64Encoded: reply.data), let image = PNGPixels.decode(Array(png)) else {
                unavailable.insert(id)
                return ("", false)
            }
            let text = SixelImage.encode(SixelImage.fitted(image, columns: placement.columns, rows: placement.rows))
            sixels.append((id, text))
            if sixels.count > Self.sixelsKept { sixels.removeFirst() }
            return (position + text, false)
        }
        guard !unavailable.contains(id), !requested.contains(id) else { return ("", false) }
        requested.insert(id)
        return ("", true)
    }

    /// The cells a picture of `width` × `height` pixels takes in the placement's box, keeping
    /// its proportions: the kitty protocol stretches an image to the cells it is given, and a
    /// cell is about twice as tall as it is wide.
    static func cells(width: Int, height: Int, within box: PicturePlacement) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0 else { return (box.columns, box.rows) }
        let rows = max(1, min(box.rows, (box.columns * height + width) / (2 * width)))
        let columns = max(1, min(box.columns, (rows * 2 * width + height / 2) / height))
        return (columns, rows)
    }

    /// A thumbnail arrived (nil: none to show; `skipped`: not fetched, as the owner moved on).
    mutating func arrived(_ id: String, _ reply: RequestImageReply?, skipped: Bool) {
        requested.remove(id)
        guard !skipped else { return }
        // Only a PNG of base64 characters goes into an escape sequence (`KittyGraphics.isBase64`).
        if let reply, reply.format == .png, KittyGraphics.isBase64(reply.data) {
            received[id] = reply
        } else {
            unavailable.insert(id)
        }
    }
}
