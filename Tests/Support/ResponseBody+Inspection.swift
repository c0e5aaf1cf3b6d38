import Courier
import Foundation

extension ResponseBody {
    /// The file of a download's body; nil for a body in memory or a stream.
    package var file: URL? {
        if case .file(let url, _) = self { return url }
        return nil
    }

    /// The byte count of a download's body; nil for a body in memory or a stream.
    package var byteCount: Int64? {
        if case .file(_, let count) = self { return count }
        return nil
    }
}
