"""The nltk job of make bench-startup: tokenize a text, stem its words with
the Porter and Snowball stemmers, count bigrams and trigrams, and print the
most frequent ones.  It needs no nltk_data download.

    python nltk_job.py text.txt
"""
import sys

import nltk


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tokens = [t.lower() for t in nltk.wordpunct_tokenize(text) if t.isalpha()]
    porter = nltk.PorterStemmer()
    snowball = nltk.SnowballStemmer("english")
    stems = [porter.stem(t) for t in tokens]
    print(len(tokens), "tokens,", len(set(tokens)), "types,", len(set(stems)), "stems")
    for word in ("imports", "loading", "running", "binding", "modules", "repeat"):
        print(f"  {word:10} porter={porter.stem(word):8} snowball={snowball.stem(word)}")
    freq = nltk.FreqDist(stems)
    print("stems:", ", ".join(f"{w}={n}" for w, n in freq.most_common(8)))
    for n in (2, 3):
        grams = nltk.FreqDist(nltk.ngrams(stems, n))
        print(f"{n}-grams:", "; ".join(" ".join(g) + f"={c}" for g, c in grams.most_common(5)))
    finder = nltk.collocations.BigramCollocationFinder.from_words(tokens)
    finder.apply_freq_filter(2)
    pmi = finder.nbest(nltk.collocations.BigramAssocMeasures().pmi, 5)
    print("collocations:", "; ".join(" ".join(b) for b in pmi))


if __name__ == "__main__":
    main(sys.argv[1])
