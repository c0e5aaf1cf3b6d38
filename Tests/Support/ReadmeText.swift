import Foundation

/// The repository's README, for tests that check it shows a compiled example verbatim.
public enum ReadmeText {
    /// Whether README.md has the file `example`, next to the calling test, as a Swift code block.
    /// - Throws: when either file cannot be read.
    public static func showsVerbatim(_ example: String, testFile: String = #filePath) throws -> Bool {
        let here = URL(fileURLWithPath: testFile).deletingLastPathComponent()
        let code = try String(contentsOf: here.appendingPathComponent(example), encoding: .utf8)
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        return readme.contains("```swift\n" + code + "```")
    }
}
