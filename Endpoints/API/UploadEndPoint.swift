import Courier
import CourierContract
import Foundation

/// Uploads: a video streamed from disk, its download link, publishing a post for it, and the
/// profile image.
public enum UploadEndPoint: SocialAPIGroup {
    /// Store a video under `Videos/{name}`, streamed from `file`.
    public static func video(name: String, file: URL) -> Endpoint<StoredVideo> {
        endpoint(
            .put, "/videos/{name}", "Store a video under Videos/{name}, streamed", status: 201, auth: true,
            errors: [403]
        ) {
            Path("name", name, .fileName, "The video's file name, with its extension")
            FileUpload(file, contentType: "video/mp4", accepted: ["video/mp4", "application/octet-stream"])
        }
    }

    /// A stored video's download URL.
    public static func videoURL(name: String) -> Endpoint<VideoLink> {
        endpoint(.get, "/videos/{name}/url", "A stored video's download URL", errors: [404]) {
            Path("name", name, .fileName, "The video's file name, with its extension")
        }
    }

    /// Publish a post for a stored video, once per idempotency key.
    public static func publish(post: NewPost, idempotencyKey: String) -> Endpoint<Post> {
        endpoint(
            .post, "/posts", "Publish a post for a stored video, once per Idempotency-Key", status: 201,
            auth: true,
            errors: [404, 409]
        ) {
            Header(
                "Idempotency-Key", idempotencyKey, .text(1, 200),
                "Repeating a key returns the first result instead of saving again")
            Body(post)
        }
    }

    /// Upload the signed-in user's profile image (JPEG or PNG, by the file's extension).
    public static func profileImage(file: URL) -> Endpoint<User> {
        endpoint(.put, "/me/avatar", "Upload the signed-in user's profile image", auth: true) {
            MultipartFile(
                "image", file,
                contentType: file.pathExtension.lowercased() == "png" ? "image/png" : "image/jpeg",
                accepted: ["image/jpeg", "image/png"])
        }
    }

    public static var samples: [any EndpointDescribing] {
        let file = URL(fileURLWithPath: #filePath)
        let link = URL(string: "http://127.0.0.1/storage/videos/clip.mp4")!  // allowed: a valid literal
        return [
            // The link names a video that a backend with sample data holds from the start (the
            // first of `SocialBackend.seedData`'s), so that a run that writes nothing finds it.
            video(name: "clip.mp4", file: file), videoURL(name: "seed-001.mp4"),
            publish(
                post: NewPost(video: "clip.mp4", videoURL: link, description: "Sample"),
                idempotencyKey: "key-1"),
            profileImage(file: file),
        ]
    }
}
