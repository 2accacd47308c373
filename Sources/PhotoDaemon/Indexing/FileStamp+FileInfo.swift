import FileSystem
import Store

extension FileStamp {
    /// The stamp of a file as `stat` describes it.
    init(_ info: FileInfo) {
        self.init(device: info.device, inode: info.inode, size: info.size, mtimeNs: info.mtimeNs)
    }
}
