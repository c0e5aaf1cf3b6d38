import Courier
import CourierPrimitives

/// Draws an upload progress bar as text lines, at most once per 5 %.
package final class ProgressBar: Sendable {
    private let output: @Sendable (String) -> Void
    private let lastStep = Locked(-1)
    private let width: Int

    /// Creates a bar.
    /// - Parameters:
    ///   - width: how many cells wide the bar is.
    ///   - output: receives each redrawn bar (starting with a carriage return) and a final newline.
    package init(width: Int = 30, output: @escaping @Sendable (String) -> Void) {
        self.width = width
        self.output = output
    }

    /// Reports progress; redraws when it moved by 5 % or more.
    package func update(_ progress: TransferProgress) {
        guard progress.direction == .upload, let fraction = progress.fraction else { return }
        let step = Int(fraction * 20)
        let draw = lastStep.withLock { last -> Bool in
            guard step > last else { return false }
            last = step
            return true
        }
        guard draw else { return }
        output(
            "\r"
                + Self.render(
                    fraction: fraction, width: width, completed: progress.completed, total: progress.total))
        if step == 20 { output("\n") }
    }

    /// One rendering of the bar, such as `[#####     ]  50% 1.0/2.0 MiB`.
    package static func render(fraction: Double, width: Int, completed: Int64, total: Int64?) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar =
            String(repeating: "#", count: filled) + String(repeating: " ", count: max(0, width - filled))
        let mib = { (bytes: Int64) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        let percent = String(Int(fraction * 100)).leftPadded(to: 3)
        return "  upload [\(bar)] \(percent)% \(mib(completed))/\(total.map(mib) ?? "?") MiB"
    }
}
