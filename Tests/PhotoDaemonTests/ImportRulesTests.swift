import Metadata
import Testing
@testable import PhotoDaemon

/// The name and folder an imported photo gets; an app's name is hostile until made safe.
@Suite struct ImportRulesTests {
    private static let now = "2026-11-28T17:05:09"

    @Test(arguments: [
        ("IMG_0001.jpg", ImageFormat.jpeg, "IMG_0001.jpg"),
        ("holiday.JPEG", .jpeg, "holiday.JPEG"),
        ("../../etc/passwd", .jpeg, "passwd.jpg"),
        ("/home/ann/.ssh/id_rsa", .png, "id_rsa.png"),
        (".bashrc", .jpeg, "bashrc.jpg"),
        ("..", .jpeg, "IMG_20261128_170509.jpg"),
        ("  meme  .png", .png, "meme.png"),
        ("looks-like.jpg", .png, "looks-like.png"),
        ("DSC_0042.NEF", .tiff, "DSC_0042.NEF"),
        ("scan", .tiff, "scan.tif"),
        ("live.heif", .heif, "live.heif"),
        ("a\u{1B}[2Jb\u{7}c.jpg", .jpeg, "a[2Jbc.jpg"),
        ("invoice\u{202E}gpj.exe", .jpeg, "invoicegpj.jpg"),
        ("line\nbreak.jpg", .jpeg, "linebreak.jpg"),
    ])
    func anAppsNameIsMadeSafe(requested: String, format: ImageFormat, expected: String) {
        #expect(ImportName.make(requested, format: format, now: Self.now) == expected)
    }

    @Test func withoutAUsableNameOneIsMade() {
        #expect(ImportName.make(nil, format: .webp, now: Self.now) == "IMG_20261128_170509.webp")
        #expect(ImportName.make("", format: .jpeg, now: Self.now) == "IMG_20261128_170509.jpg")
        #expect(ImportName.make("\u{0}\u{1}", format: .jpeg, now: Self.now) == "IMG_20261128_170509.jpg")
    }

    @Test func aLongNameIsCutAtACharacterBoundaryAndKeepsItsExtension() {
        let made = ImportName.make(String(repeating: "é", count: 300) + ".jpg", format: .jpeg, now: Self.now)
        #expect(made.hasSuffix(".jpg"))
        #expect(made.utf8.count <= ImportName.maxStemBytes + 4)
        #expect(made.dropLast(4).allSatisfy { $0 == "é" }, "no broken character: \(made)")
    }

    @Test func theFolderTakesTheDateTakenElseToday() throws {
        let folder = try ImportFolder(template: "/home/ann/Pictures/Imported/%Y/%m")
        #expect(folder.folder(taken: "2021-05-01T10:00:00+02:00", today: Self.now) == "/home/ann/Pictures/Imported/2021/05")
        #expect(folder.folder(taken: nil, today: Self.now) == "/home/ann/Pictures/Imported/2026/11")
        #expect(folder.folder(taken: "0000-00-00T00:00:00", today: Self.now) == "/home/ann/Pictures/Imported/2026/11",
                "a camera's blank date is no date")
        #expect(folder.folder(taken: "2021-13-01T00:00:00", today: Self.now) == "/home/ann/Pictures/Imported/2026/11")
        #expect(try ImportFolder(template: "/p/%Y-%m-%d/100%%").folder(taken: "2024-02-29T08:00:00", today: Self.now)
                == "/p/2024-02-29/100%")
    }

    @Test func aTemplateWithOtherFieldsOrARelativePathIsRefused() {
        #expect(throws: ImportFolder.TemplateError.unknownField("%H")) { try ImportFolder(template: "/p/%Y/%H") }
        #expect(throws: ImportFolder.TemplateError.unknownField("%")) { try ImportFolder(template: "/p/50%") }
        #expect(throws: ImportFolder.TemplateError.notAbsolute) { try ImportFolder(template: "Pictures/%Y") }
    }
}
