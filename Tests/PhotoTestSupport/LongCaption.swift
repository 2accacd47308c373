/// Descriptions of the lengths real photos carry, for tests of what output does with them.
public enum LongCaption {
    /// The caption of a real TIFF in the corpus is XML of this length (4,281 characters).
    public static let xml = String(("<?xml version=\"1.0\"?><x:xmpmeta>" + String(repeating: "Sunset over the bay ", count: 300))
        .prefix(4281))
}
