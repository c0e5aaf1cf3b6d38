import Foundation

/// The fixtures folder next to this file.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let wiremock = root.appendingPathComponent("wiremock")
}
