import PhotoAPI

/// Everything photod knows about one photo, as `photoctl show` prints it for people: sizes,
/// times, dimensions and orientation as people read them; exact values are in `--json`.
enum AssetDetails {
    /// The labelled lines, in the order a person looks for them; a value the photo does not
    /// have is left out.
    static func fields(of asset: Asset) -> [(String, Output.Cell)] {
        var fields: [(String, Output.Cell)] = [("ID", .text(asset.id)), ("Path", .path(of: asset))]
        func add(_ label: String, _ value: String?) {
            if let value { fields.append((label, .text(value))) }
        }
        add("Group", GroupLabel.text(name: asset.group, fallback: asset.fallback ?? false))
        add("Description", asset.description)
        add("Source", asset.descriptionSource.map(HumanFormat.source))
        if let sidecar = asset.sidecar { fields.append(("Sidecar", .path(sidecar, exact: asset.sidecarBytes))) }
        add("Format", asset.format)
        add("Taken", asset.taken.map { taken in
            HumanFormat.taken(taken) + (HumanFormat.hasOffset(taken) ? "" : " (no time zone recorded)")
        } ?? "not recorded")
        if let width = asset.width, let height = asset.height {
            add("Dimensions", HumanFormat.dimensions(width: width, height: height))
        }
        add("Orientation", asset.orientation.map(HumanFormat.orientation))
        add("Make", asset.make)
        add("Model", asset.model)
        add("Size", HumanFormat.size(asset.size))
        add("Modified", HumanFormat.localTime(asset.modified))
        if asset.offline == true { add("Offline", "its drive is away; the photo is kept until it is back") }
        return fields
    }
}
