// photod-thumbnailer: decodes untrusted images for photod in a sandboxed process; see Thumbnailer.
import Glibc
import Thumbnailer

exit(ThumbnailWorker.main(program: CommandLine.arguments.first ?? "photod-thumbnailer",
                          arguments: Array(CommandLine.arguments.dropFirst())))
