import Foundation

/// The size of the file at `url` in bytes; nil when it cannot be read (gone, or not a file one may stat).
/// Callers treat nil as "no usable file": an upload of unknown length, a download started anew, a cache miss.
package func fileSize(at url: URL) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size].flatMap {  // allowed: see above
        ($0 as? NSNumber)?.int64Value
    }
}
