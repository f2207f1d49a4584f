"""Apple Podcasts categories, so that a misspelt category is caught at upload, not by Apple."""

CATEGORIES: dict[str, tuple[str, ...]] = {
    "Arts": ("Books", "Design", "Fashion & Beauty", "Food", "Performing Arts", "Visual Arts"),
    "Business": ("Careers", "Entrepreneurship", "Investing", "Management", "Marketing", "Non-Profit"),
    "Comedy": ("Comedy Interviews", "Improv", "Stand-Up"),
    "Education": ("Courses", "How To", "Language Learning", "Self-Improvement"),
    "Fiction": ("Comedy Fiction", "Drama", "Science Fiction"),
    "Government": (),
    "History": (),
    "Health & Fitness": ("Alternative Health", "Fitness", "Medicine", "Mental Health", "Nutrition", "Sexuality"),
    "Kids & Family": ("Education for Kids", "Parenting", "Pets & Animals", "Stories for Kids"),
    "Leisure": (
        "Animation & Manga",
        "Automotive",
        "Aviation",
        "Crafts",
        "Games",
        "Hobbies",
        "Home & Garden",
        "Video Games",
    ),
    "Music": ("Music Commentary", "Music History", "Music Interviews"),
    "News": (
        "Business News",
        "Daily News",
        "Entertainment News",
        "News Commentary",
        "Politics",
        "Sports News",
        "Tech News",
    ),
    "Religion & Spirituality": ("Buddhism", "Christianity", "Hinduism", "Islam", "Judaism", "Religion", "Spirituality"),
    "Science": (
        "Astronomy",
        "Chemistry",
        "Earth Sciences",
        "Life Sciences",
        "Mathematics",
        "Natural Sciences",
        "Nature",
        "Physics",
        "Social Sciences",
    ),
    "Society & Culture": ("Documentary", "Personal Journals", "Philosophy", "Places & Travel", "Relationships"),
    "Sports": (
        "Baseball",
        "Basketball",
        "Cricket",
        "Fantasy Sports",
        "Football",
        "Golf",
        "Hockey",
        "Rugby",
        "Running",
        "Soccer",
        "Swimming",
        "Tennis",
        "Volleyball",
        "Wilderness",
        "Wrestling",
    ),
    "Technology": (),
    "True Crime": (),
    "TV & Film": ("After Shows", "Film History", "Film Interviews", "Film Reviews", "TV Reviews"),
}

# Every name a publisher may give, mapped to (category, subcategory or None).
_PLACES = {name: (name, None) for name in CATEGORIES} | {
    sub: (name, sub) for name, subs in CATEGORIES.items() for sub in subs
}
NAMES = tuple(sorted(_PLACES))


def place(name: str) -> tuple[str, str | None]:
    """Where a category name sits in Apple's tree: `"Tech News"` is `("News", "Tech News")`."""
    return _PLACES[name]


def check(name: str) -> str:
    if name not in _PLACES:
        raise ValueError(f"{name!r} is not an Apple Podcasts category")
    return name
