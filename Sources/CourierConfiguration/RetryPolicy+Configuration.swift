import Courier
import CourierInterceptors

extension RetryPolicy {
    /// Creates a policy from configuration settings.
    public init(_ settings: Configuration.Retry) {
        self.init(
            maxAttempts: settings.maxAttempts, baseDelay: settings.baseDelay, maxDelay: settings.maxDelay)
    }
}
