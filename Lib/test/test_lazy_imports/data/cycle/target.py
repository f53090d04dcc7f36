import holder

holder.get()
